import { z } from 'zod';

/** Anthropic Messages wire shapes (docs/reference/anthropic.md). Requests are typed; responses and events are schema-checked. */

/** A prompt-cache breakpoint: the prefix up to and including the block it is on is cached. */
export type AnthropicCacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' };
export type AnthropicTextBlock = { type: 'text'; text: string; cache_control?: AnthropicCacheControl };
export type AnthropicImageBlock = {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
  cache_control?: AnthropicCacheControl;
};
export type AnthropicThinkingBlock = { type: 'thinking'; thinking: string; signature: string };
export type AnthropicToolUseBlock = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
export type AnthropicToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  cache_control?: AnthropicCacheControl;
};
export type AnthropicContentBlock =
  AnthropicTextBlock | AnthropicImageBlock | AnthropicThinkingBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;
export type AnthropicMessage = { role: 'user' | 'assistant'; content: AnthropicContentBlock[] };

export type AnthropicTool = {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  strict?: boolean;
  cache_control?: AnthropicCacheControl;
};
export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type AnthropicRequest = {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: AnthropicTextBlock[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  metadata?: { user_id: string };
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };
  output_config?: { format: { type: 'json_schema'; schema: Record<string, unknown> } };
  service_tier?: 'auto' | 'standard_only';
  /** Automatic caching: a breakpoint on the last cacheable block. */
  cache_control?: AnthropicCacheControl;
};

const nullableCount = z.number().nullish();

export const anthropicUsageSchema = z
  .object({
    input_tokens: nullableCount,
    output_tokens: nullableCount,
    cache_creation_input_tokens: nullableCount,
    cache_read_input_tokens: nullableCount,
    output_tokens_details: z.object({ thinking_tokens: nullableCount }).loose().nullish(),
  })
  .loose();

/** Content blocks the gateway converts; others (server tools, redacted thinking, …) are skipped by type. */
export const anthropicKnownBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().nullish() }).loose(),
  z
    .object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) })
    .loose(),
]);
export const anthropicKnownBlockTypes: readonly string[] = ['text', 'thinking', 'tool_use'];
const blockTypeSchema = z.object({ type: z.string() }).loose();

export const anthropicMessageSchema = z
  .object({
    id: z.string().nullish(),
    type: z.literal('message'),
    content: z.array(blockTypeSchema),
    stop_reason: z.string().nullish(),
    usage: anthropicUsageSchema,
  })
  .loose();

export const anthropicErrorSchema = z
  .object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string() }).loose() })
  .loose();

export const messageStartEventSchema = z.object({ message: z.object({ usage: anthropicUsageSchema }).loose() });
export const contentBlockStartEventSchema = z.object({
  index: z.number().int().nonnegative(),
  content_block: blockTypeSchema,
});
export const contentBlockDeltaEventSchema = z.object({
  index: z.number().int().nonnegative(),
  delta: blockTypeSchema,
});
/** Deltas the gateway converts; others (`citations_delta`, …) are skipped by type. */
export const anthropicKnownDeltaSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
  z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
  z.object({ type: z.literal('signature_delta'), signature: z.string() }),
]);
export const anthropicKnownDeltaTypes: readonly string[] = [
  'text_delta',
  'input_json_delta',
  'thinking_delta',
  'signature_delta',
];
export const contentBlockStopEventSchema = z.object({ index: z.number().int().nonnegative() });
export const messageDeltaEventSchema = z.object({
  delta: z.object({ stop_reason: z.string().nullish() }).loose(),
  usage: anthropicUsageSchema.nullish(),
});
export const streamEventTypeSchema = z.object({ type: z.string() }).loose();

export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;
export type AnthropicKnownBlock = z.infer<typeof anthropicKnownBlockSchema>;
export type AnthropicKnownDelta = z.infer<typeof anthropicKnownDeltaSchema>;
export type AnthropicResponse = z.infer<typeof anthropicMessageSchema>;
