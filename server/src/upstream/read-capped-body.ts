import { UpstreamTransportError } from './upstream-transport-error.ts';
import type { WholeReadableBody } from './whole-answer.ts';

/**
 * What to do when a body passes the cap: `truncate` keeps the first `maxBytes` (an error body only needs its
 * start; a cut answer then fails its schema check), `fail` throws a `body_too_large` UpstreamTransportError.
 * Either way reading stops there and the rest of the body is dropped with its socket.
 */
export type BodyOverflow = 'truncate' | 'fail';

/** A whole body as text, read up to `maxBytes`, decoded by `charset` (UTF-8 when absent or unknown). */
export async function readCappedText(
  body: AsyncIterable<Uint8Array> | WholeReadableBody,
  input: { maxBytes: number; overflow: BodyOverflow; charset?: string | undefined },
): Promise<string> {
  if ('readWhole' in body) {
    const bytes = await body.readWhole({ ...input, tooLarge: () => createTooLargeError(input.maxBytes) });
    return decodeText(bytes, input.charset);
  }
  const decoder = createDecoder(input.charset);
  let text = '';
  let byteCount = 0;
  for await (const chunk of body) {
    const room = input.maxBytes - byteCount;
    byteCount += chunk.byteLength;
    if (byteCount > input.maxBytes && input.overflow === 'fail') throw createTooLargeError(input.maxBytes);
    text += decoder.decode(chunk.byteLength > room ? chunk.subarray(0, room) : chunk, { stream: true });
    if (byteCount >= input.maxBytes && input.overflow === 'truncate') break;
  }
  return text + decoder.decode();
}

/** A whole binary body (an image); a body above `maxBytes` throws a `body_too_large` UpstreamTransportError. */
export async function readCappedBytes(
  body: AsyncIterable<Uint8Array> | WholeReadableBody,
  input: { maxBytes: number },
): Promise<Buffer> {
  if ('readWhole' in body) {
    return body.readWhole({ ...input, overflow: 'fail', tooLarge: () => createTooLargeError(input.maxBytes) });
  }
  const chunks: Uint8Array[] = [];
  let byteCount = 0;
  for await (const chunk of body) {
    byteCount += chunk.byteLength;
    if (byteCount > input.maxBytes) throw createTooLargeError(input.maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Bytes as text, as `TextDecoder` decodes them (a leading byte-order mark dropped, invalid sequences replaced):
 * UTF-8 through Buffer's decoder, which gives the same text without a decoder object per call.
 */
function decodeText(bytes: Buffer, charset: string | undefined): string {
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) return createDecoder(charset).decode(bytes);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === byteOrderMark ? text.slice(1) : text;
}

const byteOrderMark = 0xfeff;

function createTooLargeError(maxBytes: number): UpstreamTransportError {
  return new UpstreamTransportError({
    kind: 'body_too_large',
    code: 'body_too_large',
    message: `The upstream sent a body larger than ${maxBytes} bytes.`,
  });
}

/** A decoder for a declared charset (the CBR rates feed is windows-1251); an unknown label falls back to UTF-8. */
function createDecoder(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}
