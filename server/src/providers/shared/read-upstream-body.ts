import { readCappedText } from '../../upstream/read-capped-body.ts';
import { parseBodyText } from './parse-error-body.ts';

/** Bodies above this are cut (error bodies) or fail their schema check (answers). */
export const defaultMaxBodyBytes = 32 * 1024 * 1024;

/**
 * Reads a whole (non-streamed) upstream body: parsed JSON, or the raw text when it is not JSON. Reading stops at
 * `maxBytes`; the cut text then fails any schema check, which reports it as an unexpected response.
 */
export async function readUpstreamBody(
  body: AsyncIterable<Uint8Array>,
  input: { maxBytes: number } = { maxBytes: defaultMaxBodyBytes },
): Promise<unknown> {
  return parseBodyText(await readCappedText(body, { maxBytes: input.maxBytes, overflow: 'truncate' }));
}

/** A whole (non-streamed) upstream body's text, for an answer read without parsing it whole (`relayResponse`). */
export function readUpstreamText(body: AsyncIterable<Uint8Array>): Promise<string> {
  return readCappedText(body, { maxBytes: defaultMaxBodyBytes, overflow: 'truncate' });
}
