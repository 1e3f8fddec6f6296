import { readCappedText } from '../../upstream/read-capped-body.ts';
import type { WholeReadableBody } from '../../upstream/whole-answer.ts';
import { parseBodyText } from './parse-error-body.ts';

/** An upstream body: a stream's (`postJson`) or one read only whole (`postJsonWhole`). */
export type UpstreamBody = AsyncIterable<Uint8Array> | WholeReadableBody;

/** Bodies above this are cut (error bodies) or fail their schema check (answers). */
export const defaultMaxBodyBytes = 32 * 1024 * 1024;

/**
 * Reads a whole (non-streamed) upstream body: parsed JSON, or the raw text when it is not JSON. Reading stops at
 * `maxBytes`; the cut text then fails any schema check, which reports it as an unexpected response.
 */
export async function readUpstreamBody(
  body: UpstreamBody,
  input: { maxBytes: number } = { maxBytes: defaultMaxBodyBytes },
): Promise<unknown> {
  return parseBodyText(await readCappedText(body, { maxBytes: input.maxBytes, overflow: 'truncate' }));
}

/** A whole (non-streamed) upstream body's text, for an answer read without parsing it whole (`relayResponse`). */
export function readUpstreamText(body: UpstreamBody): Promise<string> {
  return readCappedText(body, { maxBytes: defaultMaxBodyBytes, overflow: 'truncate' });
}
