import type { ChatProviderId } from '../../server/src/providers/provider-id.ts';
import type { ReasoningRequest } from '../shared/conversation.ts';
import type { AnswerPlan } from '../shared/plan-answer.ts';
import type { CachePolicy } from '../shared/prompt-cache.ts';
import type { KnownModels } from '../shared/list-known-model-ids.ts';
import type { Random } from '../shared/random.ts';
import type { SseEvent } from '../shared/send-response.ts';
import type { SimError } from '../shared/sim-error.ts';
import type { ChatRequest } from './chat-request-schema.ts';

export type DialectVendor = Exclude<ChatProviderId, 'anthropic' | 'gemini' | 'azure' | 'vertex'>;

/**
 * How one OpenAI-dialect vendor deviates from OpenAI's Chat Completions (docs/reference/openai-compatible-vendors.md). The dialect code in this
 * folder is written once; each vendor file only fills in these hooks.
 */
export type DialectQuirks = {
  vendor: DialectVendor;
  /** API roots after the vendor prefix: `/v1`, or `/api/v1` for OpenRouter; DeepSeek also serves the bare root. */
  apiRoots: readonly string[];
  /** Local servers (vLLM, Ollama, llama.cpp) run without a key unless one is configured. */
  isKeyRequired: boolean;
  modelIds: readonly string[];
  /** The vendor's models in the genai-prices data, listed by `GET /models` beside `modelIds`. */
  knownModels?: KnownModels;
  createRequestId: (ids: Random) => string;
  requestIdHeaders: (requestId: string) => Record<string, string>;
  /** OpenRouter's completion id is its generation id, which is also its request id. */
  createCompletionId: (ids: Random, requestId: string) => string;
  createToolCallId: (ids: Random) => string;
  /** The name the vendor reports in `model` (OpenAI and xAI: a dated snapshot of the requested alias). */
  snapshotModel: (model: string) => string;
  cachePolicy: CachePolicy;
  reasoningFor: (request: ChatRequest) => ReasoningRequest | undefined;
  /** The field carrying reasoning text in messages and deltas, or undefined when the vendor hides it. */
  reasoningField: 'reasoning_content' | 'reasoning' | undefined;
  /** OpenAI answers refusals in a `refusal` field; the others stop with `content_filter`. */
  hasRefusalField: boolean;
  /** A vendor-specific 400 for a request the generic checks accept (e.g. Mistral's tool-call ids). */
  findRequestError: (request: ChatRequest) => SimError | undefined;
  renderErrorBody: (error: SimError) => unknown;
  /** The vendor's mid-stream error; undefined means one `data:` event holding its error body (docs/reference/openai.md §Streaming). */
  midStreamErrorEvents: ((context: StreamContext) => SseEvent[]) | undefined;
  /** Where streamed usage goes (docs/reference/openai-compatible-vendors.md). */
  streamUsagePlacement: 'final-empty-chunk' | 'finish-chunk' | 'finish-chunk-then-empty-chunk';
  /** Usage is streamed even without `stream_options.include_usage` (OpenRouter, Together). */
  isStreamUsageAlwaysSent: boolean;
  /** SSE comment lines sent before the first chunk (DeepSeek and OpenRouter keep queued streams alive this way). */
  keepAliveComments: readonly string[];
  /** A data event before the first chunk: Azure's `choices: []` chunk with the prompt's content-filter results. */
  openingChunk?: (context: StreamContext) => Record<string, unknown>;
  formatUsage: (plan: AnswerPlan) => Record<string, unknown>;
  /** Adds vendor extras to every chunk (`x_groq`, `provider`, `obfuscation`, …). */
  decorateChunk: (chunk: Record<string, unknown>, position: ChunkPosition, context: StreamContext) => void;
  decorateCompletion: (completion: Record<string, unknown>, context: StreamContext) => void;
};

export type ChunkPosition = 'first' | 'middle' | 'finish' | 'usage';

/** One of the `n` answers of a request. */
export type ChoiceAnswer = { plan: AnswerPlan; toolCallIds: readonly string[] };

/** What the hooks may read about the answer being rendered. */
export type StreamContext = {
  /**
   * The first choice's answer, with `usage` counting every choice of the request (`n`): the prompt once, the output
   * of all choices summed, as the vendor reports and bills it.
   */
  plan: AnswerPlan;
  /** Every choice (index 0 is `plan`'s answer), each with its own tool-call ids; one unless `n` asks for more. */
  choices: readonly ChoiceAnswer[];
  completionId: string;
  createdUnixSeconds: number;
  model: string;
  requestId: string;
  request: ChatRequest;
  /** One id per planned tool call, in the vendor's id format. */
  toolCallIds: readonly string[];
};
