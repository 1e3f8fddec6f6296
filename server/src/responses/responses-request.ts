import { z } from 'zod';

/**
 * The OpenAI Responses request (`CreateResponse`, docs/reference/openai.md §Responses) as far as the gateway serves it. Fields it
 * cannot honour statelessly or for every vendor (`previous_response_id`, `store: true`, `conversation`, hosted tools
 * other than web search) are rejected with a 400 by `convertResponsesRequest`, never dropped silently.
 */
const inputTextPartSchema = z.object({ type: z.literal('input_text'), text: z.string() }).loose();
const inputImagePartSchema = z
  .object({
    type: z.literal('input_image'),
    image_url: z.string().min(1).nullable().optional(),
    file_id: z.string().nullable().optional(),
    detail: z.enum(['auto', 'low', 'high', 'original']).optional(),
  })
  .loose();
const inputFilePartSchema = z.object({ type: z.literal('input_file') }).loose();
const outputTextPartSchema = z.object({ type: z.literal('output_text'), text: z.string() }).loose();
const refusalPartSchema = z.object({ type: z.literal('refusal'), refusal: z.string() }).loose();

const contentPartSchema = z.discriminatedUnion('type', [
  inputTextPartSchema,
  inputImagePartSchema,
  inputFilePartSchema,
  outputTextPartSchema,
  refusalPartSchema,
]);

const messageItemSchema = z
  .object({
    type: z.literal('message'),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.union([z.string(), z.array(contentPartSchema)]),
    id: z.string().optional(),
    status: z.string().optional(),
  })
  .loose();

const functionCallItemSchema = z
  .object({
    type: z.literal('function_call'),
    call_id: z.string().min(1),
    name: z.string().min(1),
    /** Set when the function belongs to a `namespace` tool group. */
    namespace: z.string().min(1).nullable().optional(),
    arguments: z.string(),
    id: z.string().optional(),
    status: z.string().optional(),
  })
  .loose();

const functionCallOutputItemSchema = z
  .object({
    type: z.literal('function_call_output'),
    call_id: z.string().min(1),
    output: z.union([z.string(), z.array(contentPartSchema)]),
    id: z.string().nullable().optional(),
    status: z.string().nullable().optional(),
  })
  .loose();

/** A call of a custom (freeform) tool, as the Response gave it: `input` is the model's raw text. */
const customToolCallItemSchema = z
  .object({
    type: z.literal('custom_tool_call'),
    call_id: z.string().min(1),
    name: z.string().min(1),
    namespace: z.string().min(1).nullable().optional(),
    input: z.string(),
    id: z.string().optional(),
    status: z.string().optional(),
  })
  .loose();

const customToolCallOutputItemSchema = z
  .object({
    type: z.literal('custom_tool_call_output'),
    call_id: z.string().min(1),
    output: z.union([z.string(), z.array(contentPartSchema)]),
    id: z.string().nullable().optional(),
  })
  .loose();

/** Output items a client sends back unchanged (the SDK pattern `input: [...input, ...response.output]`). */
const reasoningItemSchema = z.object({ type: z.literal('reasoning') }).loose();
const webSearchCallItemSchema = z.object({ type: z.literal('web_search_call') }).loose();
const itemReferenceSchema = z.object({ type: z.literal('item_reference'), id: z.string() }).loose();

const inputItemSchema = z.preprocess(
  // An EasyInputMessage may omit `type`; it is a message when it has a role.
  (item) =>
    typeof item === 'object' && item !== null && !('type' in item) && 'role' in item
      ? { ...item, type: 'message' }
      : item,
  z.discriminatedUnion('type', [
    messageItemSchema,
    functionCallItemSchema,
    functionCallOutputItemSchema,
    customToolCallItemSchema,
    customToolCallOutputItemSchema,
    reasoningItemSchema,
    webSearchCallItemSchema,
    itemReferenceSchema,
  ]),
);

const functionToolSchema = z
  .object({
    type: z.literal('function'),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 characters of a-z, A-Z, 0-9, _ or -'),
    description: z.string().nullable().optional(),
    parameters: z.record(z.string(), z.unknown()).nullable().optional(),
    strict: z.boolean().nullable().optional(),
  })
  .loose();

/**
 * A custom (freeform) tool: the model answers with raw text, optionally following a grammar (Codex's `apply_patch`).
 * @see https://platform.openai.com/docs/guides/function-calling#custom-tools
 */
const customToolSchema = z
  .object({
    type: z.literal('custom'),
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 characters of a-z, A-Z, 0-9, _ or -'),
    description: z.string().nullable().optional(),
    format: z
      .union([
        z.object({ type: z.literal('text') }).loose(),
        z.object({ type: z.literal('grammar'), syntax: z.string(), definition: z.string() }).loose(),
      ])
      .nullable()
      .optional(),
  })
  .loose();

/**
 * A group of function and custom tools under a shared name (Codex puts each MCP server's tools in one); calls of its
 * tools carry the `namespace`. Vendors have no such groups: the gateway flattens them (`flatten-tool-groups.ts`).
 */
const namespaceToolSchema = z
  .object({
    type: z.literal('namespace'),
    name: z.string().min(1),
    description: z.string().nullable().optional(),
    tools: z.array(z.discriminatedUnion('type', [functionToolSchema, customToolSchema])).min(1),
  })
  .loose();

export const webSearchToolTypes = [
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
] as const;

const webSearchToolSchema = z
  .object({
    type: z.enum(webSearchToolTypes),
    search_context_size: z.enum(['low', 'medium', 'high']).optional(),
    filters: z
      .object({ allowed_domains: z.array(z.string()).nullable().optional() })
      .loose()
      .nullable()
      .optional(),
    user_location: z.unknown().optional(),
  })
  .loose();

const toolSchema = z.discriminatedUnion('type', [
  functionToolSchema,
  customToolSchema,
  namespaceToolSchema,
  webSearchToolSchema,
]);

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), name: z.string().min(1) }).loose(),
  z.object({ type: z.literal('custom'), name: z.string().min(1) }).loose(),
  z.object({ type: z.enum(webSearchToolTypes) }).loose(),
]);

const textFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }).loose(),
  z.object({ type: z.literal('json_object') }).loose(),
  z
    .object({
      type: z.literal('json_schema'),
      name: z.string().min(1),
      schema: z.record(z.string(), z.unknown()),
      description: z.string().optional(),
      strict: z.boolean().nullable().optional(),
    })
    .loose(),
]);

export const responsesRequestSchema = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(inputItemSchema)]),
    instructions: z.string().nullable().optional(),
    tools: z.array(toolSchema).optional(),
    tool_choice: toolChoiceSchema.optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    max_output_tokens: z.number().int().min(16).nullable().optional(),
    max_tool_calls: z.number().int().min(1).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    reasoning: z
      .object({
        effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullable().optional(),
        summary: z.enum(['auto', 'concise', 'detailed']).nullable().optional(),
      })
      .loose()
      .nullable()
      .optional(),
    text: z
      .object({
        format: textFormatSchema.optional(),
        verbosity: z.enum(['low', 'medium', 'high']).nullable().optional(),
      })
      .loose()
      .nullable()
      .optional(),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_obfuscation: z.boolean().optional() }).loose().nullable().optional(),
    metadata: z.record(z.string().max(64), z.string().max(512)).nullable().optional(),
    store: z.boolean().nullable().optional(),
    previous_response_id: z.string().nullable().optional(),
    conversation: z.unknown().optional(),
    background: z.boolean().nullable().optional(),
    include: z.array(z.string()).nullable().optional(),
    user: z.string().optional(),
    safety_identifier: z.string().optional(),
    prompt_cache_key: z.string().optional(),
    truncation: z.enum(['auto', 'disabled']).nullable().optional(),
    service_tier: z.string().nullable().optional(),
  })
  .loose();

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
export type ResponsesInputItem = z.infer<typeof inputItemSchema>;
export type ResponsesContentPart = z.infer<typeof contentPartSchema>;
export type ResponsesTool = z.infer<typeof toolSchema>;
export type ResponsesFunctionTool = z.infer<typeof functionToolSchema>;
export type ResponsesCustomTool = z.infer<typeof customToolSchema>;
export type ResponsesWebSearchTool = z.infer<typeof webSearchToolSchema>;
export type ResponsesToolChoice = z.infer<typeof toolChoiceSchema>;
