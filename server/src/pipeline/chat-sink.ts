import type { GatewayError } from '../errors/gateway-error.ts';
import type { ChatChunk, ChatCompletion } from '../openai-api/chat-completion.ts';

/**
 * Where a chat call's answer goes; `http/` implements it over the HTTP response, so the pipeline never touches the
 * framework. After `startStream`, errors can only be sent in-stream (STYLE.md §8).
 */
export type ChatSink = {
  sendCompletion: (completion: ChatCompletion) => void;
  startStream: () => void;
  sendChunk: (chunk: ChatChunk) => void;
  sendStreamError: (error: GatewayError) => void;
  endStream: () => void;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
};
