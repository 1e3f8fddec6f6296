import type { GatewayError } from '../errors/gateway-error.ts';
import type { ChatChunk, ChatCompletion } from '../openai-api/chat-completion.ts';

/** Where an answer came from; `http/` shows the route to operator keys only (`x-gateway-route`). */
export type AnswerOrigin = { routeId: string };

/**
 * Where a chat call's answer goes; `http/` implements it over the HTTP response, so the pipeline never touches the
 * framework. Once the stream's headers are out (`startStream`, or early through `awaitStream`), errors can only be
 * sent in-stream (docs/STYLE.md §8).
 */
export type ChatSink = {
  /** Headers known before the answer (the token budget's `x-ratelimit-*-tokens`); called before anything is sent. */
  setHeaders: (headers: Readonly<Record<string, string>>) => void;
  sendCompletion: (completion: ChatCompletion, origin: AnswerOrigin) => void;
  /**
   * A completion already serialised (an answer forwarded as the vendor sent it), sent as it is. Optional: a sink
   * that answers in another API's shape (/v1/messages) leaves it out, and its answers are then always converted.
   */
  sendCompletionJson?: (json: string, origin: AnswerOrigin) => void;
  /**
   * A streamed answer is awaited. If its first chunk takes longer than the keep-alive interval (a model thinking in
   * silence), the stream's headers go out and keep-alive comments flow meanwhile, so proxies and CDNs keep the
   * connection; routes can still fail over, since no data was sent. Returns the function that stops the wait, called
   * when the first chunk or an error has arrived.
   */
  awaitStream: () => () => void;
  /** Opens the stream (if `awaitStream` has not already sent its headers) before the first chunk. */
  startStream: (origin: AnswerOrigin) => void;
  /**
   * False when the client's socket buffer is full: the caller waits for `waitForDrain()` before sending more, so a
   * slow client slows the upstream instead of filling the gateway's memory.
   */
  sendChunk: (chunk: ChatChunk) => boolean;
  /**
   * A chunk already serialised (forwarded as the vendor sent it, with the gateway's id, created and model), sent as
   * it is; same return as `sendChunk`. Optional, like `sendCompletionJson`: without it chunks are serialised.
   */
  sendChunkJson?: (json: string) => boolean;
  /** Resolves when the client's buffer has drained, or the client has gone. */
  waitForDrain: () => Promise<void>;
  sendStreamError: (error: GatewayError) => void;
  endStream: () => void;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
};
