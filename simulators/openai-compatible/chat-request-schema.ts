import { z } from 'zod';

const contentPartSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  image_url: z.union([z.string(), z.looseObject({ url: z.string() })]).optional(),
  refusal: z.string().optional(),
});

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z
    .union([z.string(), z.array(contentPartSchema)])
    .nullable()
    .optional(),
  name: z.string().optional(),
  tool_calls: z.array(toolCallSchema).nullable().optional(),
  tool_call_id: z.string().optional(),
  refusal: z.string().nullable().optional(),
});

const toolSchema = z.looseObject({
  type: z.string(),
  function: z
    .looseObject({ name: z.string(), description: z.string().optional(), parameters: z.unknown().optional() })
    .optional(),
});

const namedToolChoiceSchema = z.looseObject({
  type: z.string(),
  function: z.looseObject({ name: z.string() }).optional(),
  allowed_tools: z
    .looseObject({
      mode: z.string(),
      tools: z.array(z.looseObject({ type: z.string(), function: z.looseObject({ name: z.string() }).optional() })),
    })
    .optional(),
});

/** Chat Completions request (docs/reference/openai.md §Chat Completions), loose: unknown fields pass, as the vendors accept them. */
export const chatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(messageSchema).min(1),
  stream: z.boolean().nullable().optional(),
  stream_options: z
    .looseObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
    .nullable()
    .optional(),
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
  max_tokens: z.number().int().min(1).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  n: z.number().int().min(1).max(128).nullable().optional(),
  stop: z
    .union([z.string(), z.array(z.string()).max(4)])
    .nullable()
    .optional(),
  tools: z.array(toolSchema).nullable().optional(),
  tool_choice: z.union([z.string(), namedToolChoiceSchema]).nullable().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  response_format: z
    .looseObject({
      type: z.string(),
      json_schema: z.looseObject({ name: z.string(), schema: z.unknown().optional() }).optional(),
    })
    .nullable()
    .optional(),
  reasoning_effort: z.string().nullable().optional(),
  reasoning: z
    .looseObject({ effort: z.string().optional(), enabled: z.boolean().optional(), exclude: z.boolean().optional() })
    .nullable()
    .optional(),
  web_search_options: z.looseObject({}).nullable().optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = ChatRequest['messages'][number];
