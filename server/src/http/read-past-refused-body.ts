import type { IncomingMessage } from 'node:http';

/** How much of a refused body the server reads and drops after its answer before it closes the connection. */
export const refusedBodyReadLimit = { bytes: 64 * 1024 * 1024, ms: 10_000 } as const;

/**
 * Keeps reading (and dropping) the rest of a body the server refused before reading it all, so the client sees the
 * answer. Fastify answers a body over the limit at once with `Connection: close`, and Node then closes a socket that
 * still holds unread bytes, which makes the kernel send a reset: a client still uploading gets ECONNRESET instead of
 * the 413 (a lingering close, as web servers do it). The connection stays open while the rest arrives, within
 * `refusedBodyReadLimit`; past it the socket is destroyed, so a client cannot keep it busy forever. Returns whether
 * the body was still arriving: then the answer must not say `Connection: close`.
 */
export function readPastRefusedBody(incoming: IncomingMessage): boolean {
  if (incoming.complete) return false;
  let byteCount = 0;
  const close = () => incoming.socket.destroy();
  const timer = setTimeout(close, refusedBodyReadLimit.ms).unref();
  const onData = (chunk: Buffer) => {
    byteCount += chunk.length;
    if (byteCount > refusedBodyReadLimit.bytes) close();
  };
  incoming.on('data', onData);
  incoming.once('close', () => {
    clearTimeout(timer);
    incoming.off('data', onData);
  });
  incoming.resume();
  return true;
}
