import type { ChatRequest } from '../openai-api/chat-request.ts';
import type { ChatChunk, ChatCompletion, Usage } from '../openai-api/chat-completion.ts';
import type { ProviderId } from './provider-id.ts';
import type { RouteOptions } from './vendor-definition.ts';

/** Where one route sends a request: filled from the route row, the credential already decrypted. */
export type UpstreamTarget = {
  baseUrl: string;
  /** The vendor credential, or undefined for servers that need none (local vLLM, Ollama). */
  credential: string | undefined;
  /** The model id the vendor expects (may differ from the id the client asked for). */
  upstreamModel: string;
  /**
   * The model's output-token limit from the catalogue. Vendors that require an output limit (Anthropic's
   * `max_tokens`) use it when the client sets none.
   */
  defaultMaxOutputTokens?: number;
  /** The route's vendor-specific settings (Azure's api-version, Vertex's project and location), already checked. */
  options?: RouteOptions;
};

/** A fully built upstream HTTP call; `providers/shared/post-json.ts` sends it. */
export type UpstreamHttpRequest = {
  url: string;
  headers: Record<string, string>;
  body: string;
};

/** One server-sent event, already split by `providers/shared/parse-sse.ts`; `data` is parsed JSON. */
/** One server-sent event: its `data` parsed as JSON and, from the parser, as the text it arrived in (to relay it). */
export type SseEvent = { event: string | undefined; data: unknown; text?: string };

/**
 * How an upstream failure must be handled (docs/STYLE.md §8):
 * - `request`: the client's request is at fault; return it as InvalidRequestError, never retry.
 * - `credential`: the vendor rejected *our* credential; log and fail over.
 * - `retryable`: 429, 5xx, overload, timeouts; fail over, honouring `retryAfterMs` for the route.
 */
export type UpstreamFailure = {
  kind: 'request' | 'credential' | 'retryable';
  status: number;
  /** Clean message, safe to show a client (no keys, no hosts). */
  message: string;
  /** For `request`: the client parameter at fault, when the vendor says. */
  param?: string;
  retryAfterMs?: number;
  /** The raw vendor error code or type, for logs. */
  vendorCode?: string;
};

/**
 * A non-streamed answer forwarded as the vendor wrote it: only `id`, `created`, `model` and `usage` (with the cost)
 * are replaced, so the vendor's text is neither validated field by field nor rebuilt and re-serialised.
 */
export type RelayedCompletion = {
  /** The vendor's usage, read as `parseResponse` would read it; undefined when the answer carries none. */
  usage: Usage | undefined;
  /** The answer text's size in UTF-8 bytes (content, refusals, tool calls), for the estimate without usage. */
  textBytes: number;
  /** The body to send: the vendor's text with the gateway's `id`, `created` and `model` and this usage. */
  render: (usage: Usage) => string;
};

/** The only contract between the pipeline and a vendor. Every function is pure: no I/O, clock or logging. */
export type ProviderAdapter = {
  readonly id: ProviderId;
  /** ChatRequest → the vendor's HTTP request. Throws InvalidRequestError for a parameter the vendor cannot honour. */
  buildRequest: (input: { request: ChatRequest; target: UpstreamTarget; isStreaming: boolean }) => UpstreamHttpRequest;
  /** The vendor's JSON response body → a ChatCompletion whose `model` is `requestedModel`. */
  parseResponse: (input: {
    body: unknown;
    requestedModel: string;
    createdUnixSeconds: number;
    id: string;
  }) => ChatCompletion;
  /**
   * Optional: the vendor's body text → a RelayedCompletion when the answer is already what `parseResponse` would
   * make of it but for the replaced fields; undefined when it needs converting, and `parseResponse` then reads it
   * parsed. Reading the text without parsing it whole is the point: the relay pays only for the fields it checks.
   */
  relayResponse?: (input: {
    text: string;
    requestedModel: string;
    createdUnixSeconds: number;
    id: string;
  }) => RelayedCompletion | undefined;
  /**
   * The vendor's parsed SSE events → OpenAI chunks whose `model` is `requestedModel`. Usage, when the vendor sends
   * it, is put on a final chunk with empty `choices`. A vendor's mid-stream error is thrown as an UpstreamFailureError.
   */
  parseStream: (input: {
    events: AsyncIterable<SseEvent>;
    requestedModel: string;
    createdUnixSeconds: number;
    id: string;
  }) => AsyncIterable<ChatChunk>;
  /**
   * `parseStream`'s conversion one event at a time, for adapters that have it: the gateway's streamed path then reads
   * the body, splits its events and converts them in one loop (`shared/read-event-stream.ts`) instead of a chain of
   * generators per stream. Must give exactly what `parseStream` gives.
   */
  createStreamConverter?: (input: {
    requestedModel: string;
    createdUnixSeconds: number;
    id: string;
  }) => StreamEventConverter;
  /** A non-2xx vendor response → how to handle it. `body` is parsed JSON, or the raw text when it was not JSON. */
  parseError: (input: { status: number; body: unknown; headers: Readonly<Record<string, string>> }) => UpstreamFailure;
};

/** A stream's conversion fed one event at a time; both append what they produce to `out`. */
export type StreamEventConverter = {
  /** Throws an UpstreamFailureError for a vendor's mid-stream error. */
  onEvent: (event: SseEvent, out: ChatChunk[]) => void;
  /** At the stream's end: the closing chunks (usage); throws when it was cut off before every choice finished. */
  onEnd: (out: ChatChunk[]) => void;
};

/** Thrown by adapters and shared mechanics when an upstream fails mid-call (for example a mid-stream error event). */
export class UpstreamFailureError extends Error {
  readonly failure: UpstreamFailure;
  constructor(failure: UpstreamFailure) {
    super(failure.message);
    this.name = 'UpstreamFailureError';
    this.failure = failure;
  }
}
