import type { FinishReason, Usage } from '../../openai-api/chat-completion.ts';
import type { ChatMessage } from '../../openai-api/chat-request.ts';
import type { UnsupportedParameter } from '../shared/refuse-unsupported-parameters.ts';
import type { OpenAiChunk, OpenAiUsage } from './openai-api.ts';

/** The request body sent to an OpenAI-dialect vendor: the client's request, unknown fields included. */
export type DialectRequestBody = { messages: ChatMessage[]; [field: string]: unknown };

/** A dialect error body reduced to OpenAI's four fields; `status` when the body carries an HTTP status. */
export type DialectError = {
  message: string;
  type?: string | undefined;
  param?: string | undefined;
  code?: string | undefined;
  status?: number | undefined;
};

export type ReasoningField = 'reasoning_content' | 'reasoning';

/**
 * How one OpenAI-dialect vendor differs from OpenAI (docs/reference/openai-compatible-vendors.md). The dialect
 * converters in this folder are written once; OpenAI itself uses `openAiQuirks`, and each OpenAI-dialect vendor
 * overrides hooks in its own folder (`groq/groq-quirks.ts`, …).
 */
export type DialectQuirks = {
  /** Shown in messages: "The upstream provider (Mistral) …". */
  vendorName: string;
  /** The body field that carries the output-token limit. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** Whether the vendor accepts `stream_options`; where it does, the gateway always asks for usage (billing). */
  acceptsStreamOptions: boolean;
  /**
   * Whether the vendor takes Anthropic-style `cache_control` prompt-cache breakpoints on parts and tools (OpenRouter
   * passes them to the models that use them); elsewhere they are removed (`shared/remove-cache-control.ts`).
   */
  forwardsCacheControl: boolean;
  /**
   * Parameters the vendor refuses (or cannot honour) that the gateway refuses with a 400 naming them before any
   * upstream call (Groq's `n > 1`), so the client gets the same answer from every route of the model.
   */
  unsupportedParameters: readonly UnsupportedParameter[];
  /** The last step of request conversion: vendor renames and id formats. */
  rewriteRequestBody: (body: DialectRequestBody) => DialectRequestBody;
  /** Fields that carry reasoning text in messages and deltas, in order of preference. */
  reasoningFields: readonly ReasoningField[];
  convertUsage: (usage: OpenAiUsage) => Usage;
  /** Usage outside the standard `usage` key (Groq's `x_groq.usage`); used only when no standard usage arrives. */
  findExtraUsage: (chunk: OpenAiChunk) => Usage | undefined;
  /** Finish reasons beyond OpenAI's; `error` means the vendor failed mid-answer. Undefined: unknown value. */
  mapExtraFinishReason: (value: string) => FinishReason | 'error' | undefined;
  /** Error bodies in a shape other than `{"error": {…}}` with a string code; undefined when the body is not one. */
  readErrorBody: (body: unknown) => DialectError | undefined;
};
