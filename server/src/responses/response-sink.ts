import type { ResponseObject } from './response-object.ts';
import type { SequencedEvent } from './response-stream-event.ts';

/** The route that served the answer (the latest round's), when a model was called; operator keys see it. */
export type ResponseOrigin = { routeId: string | undefined };

/**
 * Where a Responses call's answer goes; `http/` implements it over the HTTP response. Once the stream is open (its
 * first event, or early through `awaitStream`), errors can only be sent in-stream: an `error` event, then
 * `response.failed`.
 */
export type ResponseSink = {
  /** Headers known before the answer (the token budget's `x-ratelimit-*-tokens`); called before anything is sent. */
  setHeaders: (headers: Readonly<Record<string, string>>) => void;
  sendResponse: (response: ResponseObject, origin: ResponseOrigin) => void;
  /**
   * A streamed answer is awaited: if its first event takes longer than the keep-alive interval (a model thinking in
   * silence), the stream's headers go out and keep-alive comments flow meanwhile, so proxies keep the connection.
   * Returns the function that stops the wait.
   */
  awaitStream: () => () => void;
  /** Opens the stream on the first event. False when the client's buffer is full: wait for `waitForDrain()`. */
  sendEvent: (event: SequencedEvent, origin: ResponseOrigin) => boolean;
  /** Resolves when the client's buffer has drained, or the client has gone. */
  waitForDrain: () => Promise<void>;
  /** Whether the stream's headers are out: from then on, a failure is reported in-stream. */
  readonly isStreamOpen: boolean;
  endStream: () => void;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
};
