import { convertTransportFailure } from './guarded-body.ts';
import type { MapTransportError, StreamingRequest } from './request-streaming.ts';
import { WholeAnswer } from './whole-answer.ts';

/** An upstream answer whose headers have arrived; its body is read whole by the caller (`readCappedText`). */
export type WholeReply = Pick<WholeAnswer, 'status' | 'headers' | 'body'>;

/**
 * Sends one call whose answer is read whole (a non-streamed chat answer), through the dispatcher's own `dispatch`
 * with `WholeAnswer` as its handler: the same timeouts, abort and error conversion as `requestStreaming`, the same
 * dispatcher (so the same pool, connect timeout and address guard), without undici's request handler and `Readable`.
 */
export function requestWhole(input: StreamingRequest, mapError: MapTransportError): Promise<WholeReply> {
  const { signal } = input;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    try {
      const target = splitUrl(input.request.url);
      const handler = new WholeAnswer({ signal, mapError, resolve, reject });
      input.dispatcher.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: input.method ?? 'POST',
          headers: input.request.headers,
          body: input.request.body ?? null,
          headersTimeout: input.timeouts.firstByteTimeoutMs,
          bodyTimeout: input.timeouts.idleTimeoutMs,
        },
        handler,
      );
    } catch (error) {
      // An invalid URL, or a dispatcher that throws instead of reporting to the handler.
      reject(convertTransportFailure(error, signal, mapError));
    }
  });
}

type UrlTarget = { origin: string; path: string };

/** A route's URL is the same on every call: it is parsed once, as undici's `request(url)` would on each. */
const targetByUrl = new Map<string, UrlTarget>();
const maxRememberedUrls = 1024;

function splitUrl(url: string): UrlTarget {
  const known = targetByUrl.get(url);
  if (known !== undefined) return known;
  const parsed = new URL(url);
  const target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  // URLs carry no per-call parts today; the bound keeps a future one from growing this without limit.
  if (targetByUrl.size >= maxRememberedUrls) targetByUrl.clear();
  targetByUrl.set(url, target);
  return target;
}
