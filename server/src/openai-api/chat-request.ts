import { z } from 'zod';

/**
 * The OpenAI Chat Completions request (docs/reference/openai.md §Chat Completions). Known fields are checked; unknown fields are kept
 * (`loose`) so they can pass through to OpenAI-dialect vendors.
 */
const textPartSchema = z.object({ type: z.literal('text'), text: z.string() }).loose();
const imagePartSchema = z
  .object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }).loose(),
  })
  .loose();
const otherPartSchema = z.object({ type: z.enum(['input_audio', 'file', 'refusal']) }).loose();
const userPartSchema = z.discriminatedUnion('type', [textPartSchema, imagePartSchema, otherPartSchema]);

const toolCallSchema = z
  .object({
    id: z.string().min(1),
    type: z.literal('function'),
    function: z.object({ name: z.string().min(1), arguments: z.string() }).loose(),
  })
  .loose();

const systemMessageSchema = z
  .object({
    role: z.enum(['system', 'developer']),
    content: z.union([z.string(), z.array(textPartSchema).min(1)]),
    name: z.string().optional(),
  })
  .loose();
const userMessageSchema = z
  .object({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(userPartSchema).min(1)]),
    name: z.string().optional(),
  })
  .loose();
const assistantMessageSchema = z
  .object({
    role: z.literal('assistant'),
    content: z
      .union([z.string(), z.array(z.discriminatedUnion('type', [textPartSchema, otherPartSchema]))])
      .nullable()
      .optional(),
    refusal: z.string().nullable().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    name: z.string().optional(),
    reasoning_content: z.string().nullable().optional(),
  })
  .loose();
const toolMessageSchema = z
  .object({
    role: z.literal('tool'),
    tool_call_id: z.string().min(1),
    content: z.union([z.string(), z.array(textPartSchema)]),
  })
  .loose();

export const chatMessageSchema = z.discriminatedUnion('role', [
  systemMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
]);

const functionToolSchema = z
  .object({
    type: z.literal('function'),
    function: z
      .object({
        name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 characters of a-z, A-Z, 0-9, _ or -'),
        description: z.string().optional(),
        parameters: z.record(z.string(), z.unknown()).optional(),
        strict: z.boolean().nullable().optional(),
      })
      .loose(),
  })
  .loose();

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }).loose(),
]);

const responseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }).loose(),
  z.object({ type: z.literal('json_object') }).loose(),
  z
    .object({
      type: z.literal('json_schema'),
      json_schema: z
        .object({
          name: z.string().min(1),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullable().optional(),
        })
        .loose(),
    })
    .loose(),
]);

export const chatRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(chatMessageSchema).min(1),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullable().optional(),
    max_tokens: z.number().int().min(1).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    n: z.number().int().min(1).max(128).nullable().optional(),
    stop: z
      .union([z.string(), z.array(z.string()).min(1).max(4)])
      .nullable()
      .optional(),
    seed: z.number().int().nullable().optional(),
    presence_penalty: z.number().min(-2).max(2).nullable().optional(),
    frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
    tools: z.array(functionToolSchema).optional(),
    tool_choice: toolChoiceSchema.optional(),
    parallel_tool_calls: z.boolean().optional(),
    response_format: responseFormatSchema.optional(),
    reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullable().optional(),
    user: z.string().optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
  })
  .loose()
  .superRefine((request, context) => {
    const problem = findUnansweredToolMessage(request.messages);
    if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    // Chat answers carry no citations and the gateway bills no vendor search fee: search lives in /v1/responses.
    if (request['web_search_options'] !== undefined && request['web_search_options'] !== null) {
      context.addIssue({
        code: 'custom',
        path: ['web_search_options'],
        message:
          'web search is not available on /v1/chat/completions. For answers with sources, use POST /v1/responses with tools: [{"type": "web_search"}]',
      });
    }
  });

/**
 * Every `tool` message must answer a call of the assistant message just before it (only other tool messages in
 * between), as OpenAI and Anthropic require; checked here so no vendor is called with a history it will refuse.
 */
function findUnansweredToolMessage(
  messages: readonly z.infer<typeof chatMessageSchema>[],
): { path: PropertyKey[]; message: string } | undefined {
  let openCallIds = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant') openCallIds = new Set((message.tool_calls ?? []).map((call) => call.id));
    else if (message.role !== 'tool') openCallIds = new Set();
    else if (!openCallIds.has(message.tool_call_id)) {
      return {
        path: ['messages', index, 'tool_call_id'],
        message: 'no tool call with this id in the assistant message before it',
      };
    }
  }
  return undefined;
}

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatTool = z.infer<typeof functionToolSchema>;
export type ChatToolCall = z.infer<typeof toolCallSchema>;
export type ChatContentPart = z.infer<typeof userPartSchema>;
