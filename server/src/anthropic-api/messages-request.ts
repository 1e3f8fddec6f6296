import { z } from 'zod';

/**
 * The Anthropic Messages request (docs/reference/anthropic.md §Request) as `POST /v1/messages` accepts it. Known fields are checked;
 * other fields are kept (`loose`) and ignored (docs/messages.md lists which ones are refused instead).
 */
/**
 * A string or an array of blocks. A plain union would report any problem inside the array as an invalid field;
 * this names the block and the field that is wrong (`messages[0].content[1].text`).
 */
function stringOrArray<Item extends z.ZodType>(item: Item) {
  const arraySchema = z.array(item);
  return z.unknown().transform((value, context): string | Array<z.infer<Item>> => {
    const result = typeof value === 'string' ? z.string().safeParse(value) : arraySchema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) context.addIssue({ ...issue });
    return z.NEVER;
  });
}

const cacheControlSchema = z.object({ type: z.literal('ephemeral') }).loose();

const textBlockSchema = z
  .object({ type: z.literal('text'), text: z.string(), cache_control: cacheControlSchema.nullable().optional() })
  .loose();

const imageSourceSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('base64'),
      media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
      data: z.string().min(1),
    })
    .loose(),
  z.object({ type: z.literal('url'), url: z.string().regex(/^https?:\/\//i, 'must be an http(s) URL') }).loose(),
]);
const imageBlockSchema = z
  .object({
    type: z.literal('image'),
    source: imageSourceSchema,
    cache_control: cacheControlSchema.nullable().optional(),
  })
  .loose();

const toolUseBlockSchema = z
  .object({
    type: z.literal('tool_use'),
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
  })
  .loose();

const toolResultBlockSchema = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: stringOrArray(z.discriminatedUnion('type', [textBlockSchema, imageBlockSchema])).optional(),
    is_error: z.boolean().optional(),
    cache_control: cacheControlSchema.nullable().optional(),
  })
  .loose();

const thinkingBlockSchema = z
  .object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() })
  .loose();

/** Block types Anthropic defines that the gateway cannot carry to every vendor; refused with a 400 naming them. */
export const unsupportedBlockTypes = [
  'redacted_thinking',
  'document',
  'search_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
] as const;
const unsupportedBlockSchema = z.object({ type: z.enum(unsupportedBlockTypes) }).loose();

const contentBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  imageBlockSchema,
  toolUseBlockSchema,
  toolResultBlockSchema,
  thinkingBlockSchema,
  unsupportedBlockSchema,
]);

/**
 * `system` turns inside `messages` come from Claude Code (beta `mid-conversation-system-2026-04-07`): instructions
 * added mid-conversation, carried to the target model as system messages where they stand.
 */
const messageSchema = z
  .object({
    role: z.enum(['user', 'assistant', 'system']),
    content: stringOrArray(contentBlockSchema),
  })
  .loose();

/** A custom tool; a server tool (`type` other than `custom`) is refused when the request is converted. */
const toolSchema = z
  .object({
    type: z.string().optional(),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 characters of a-z, A-Z, 0-9, _ or -'),
    description: z.string().optional(),
    input_schema: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
    cache_control: cacheControlSchema.nullable().optional(),
  })
  .loose();

const parallelOption = { disable_parallel_tool_use: z.boolean().optional() };
const toolChoiceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), ...parallelOption }).loose(),
  z.object({ type: z.literal('any'), ...parallelOption }).loose(),
  z.object({ type: z.literal('tool'), name: z.string().min(1), ...parallelOption }).loose(),
  z.object({ type: z.literal('none') }).loose(),
]);

const thinkingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }).loose(),
  z.object({ type: z.literal('disabled') }).loose(),
  z.object({ type: z.literal('adaptive') }).loose(),
]);

const outputFormatSchema = z
  .object({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })
  .loose();

const outputConfigSchema = z
  .object({
    effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).nullable().optional(),
    format: outputFormatSchema.nullable().optional(),
  })
  .loose();

export const messagesRequestSchema = z
  .object({
    model: z.string().min(1),
    max_tokens: z.number().int().min(1),
    messages: z.array(messageSchema).min(1),
    system: stringOrArray(textBlockSchema).optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stop_sequences: z.array(z.string().min(1)).max(4, 'at most 4 stop sequences are supported').optional(),
    tools: z.array(toolSchema).optional(),
    tool_choice: toolChoiceSchema.optional(),
    thinking: thinkingSchema.optional(),
    output_config: outputConfigSchema.optional(),
    /** The structured-outputs beta's spelling of `output_config.format` (LiteLLM, `beta.messages.create`). */
    output_format: outputFormatSchema.nullable().optional(),
    /** Server-side conversation state (the SDK tool runner's `{"type":"create"}`): refused, the gateway keeps none. */
    thread: z.unknown().optional(),
    metadata: z.object({ user_id: z.string().nullable().optional() }).loose().optional(),
    cache_control: cacheControlSchema.nullable().optional(),
  })
  .loose();

/**
 * `POST /v1/messages/count_tokens`: the fields of a Messages request that make up its input; no output limit.
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export const countTokensRequestSchema = messagesRequestSchema.extend({
  max_tokens: z.number().int().min(1).optional(),
});

/** Anthropic's web search server tool types (`web_search_20250305` and later versions of the same tool). */
const webSearchToolType = /^web_search_\d{8}$/;

/** Whether a tool is Anthropic's `web_search` server tool, which the gateway answers with its own search. */
export function isWebSearchTool(tool: { type?: string | undefined }): boolean {
  return tool.type !== undefined && webSearchToolType.test(tool.type);
}

export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
export type MessageParam = z.infer<typeof messageSchema>;
export type ContentBlockParam = z.infer<typeof contentBlockSchema>;
export type ToolParam = z.infer<typeof toolSchema>;
