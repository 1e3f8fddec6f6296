import type { Dispatcher } from 'undici';
import type { ProviderId } from '../providers/provider-id.ts';
import type { UpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';

/** One input of an embeddings request: text, or token ids of the model's tokenizer. */
export type EmbeddingInput = { kind: 'text'; text: string } | { kind: 'tokens'; tokens: readonly number[] };

/** One call for every input of a request on one route. */
export type EmbeddingCallInput = {
  provider: ProviderId;
  target: { baseUrl: string; credential: string | undefined; upstreamModel: string };
  inputs: readonly EmbeddingInput[];
  dimensions: number | undefined;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  timeouts: UpstreamTimeouts;
};

/** One vector per input, in input order, and the input tokens the vendor counted (undefined: it does not say). */
export type Embedded = { vectors: number[][]; inputTokens: number | undefined };

/**
 * A vendor's embedding client, over the same undici pool as chat. Failures are thrown as UpstreamFailureError
 * (classified like chat failures) so the caller fails over, or InvalidRequestError for what the vendor cannot take.
 */
export type EmbeddingClient = (input: EmbeddingCallInput) => Promise<Embedded>;
