import { z } from 'zod';

const cacheControlSchema = z.looseObject({ type: z.string(), ttl: z.string().optional() });

const contentBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  tool_use_id: z.string().optional(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  cache_control: cacheControlSchema.nullable().optional(),
});

const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
});

/** Anthropic Messages request (docs/reference/anthropic.md §Request); loose, as the API ignores fields it does not use. */
export const messagesRequestSchema = z.looseObject({
  model: z.string(),
  max_tokens: z.number().int().min(1),
  messages: z.array(messageSchema),
  system: z
    .union([
      z.string(),
      z.array(
        z.looseObject({ type: z.string(), text: z.string(), cache_control: cacheControlSchema.nullable().optional() }),
      ),
    ])
    .optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  top_k: z.number().int().optional(),
  stream: z.boolean().optional(),
  tools: z
    .array(
      z.looseObject({
        name: z.string(),
        type: z.string().optional(),
        input_schema: z.unknown().optional(),
        cache_control: cacheControlSchema.nullable().optional(),
      }),
    )
    .optional(),
  tool_choice: z
    .looseObject({
      type: z.enum(['auto', 'any', 'tool', 'none']),
      name: z.string().optional(),
      disable_parallel_tool_use: z.boolean().optional(),
    })
    .optional(),
  thinking: z
    .looseObject({ type: z.enum(['enabled', 'disabled', 'adaptive']), budget_tokens: z.number().int().optional() })
    .optional(),
  output_config: z
    .looseObject({
      effort: z.string().optional(),
      format: z.looseObject({ type: z.string(), schema: z.unknown().optional() }).optional(),
    })
    .optional(),
  cache_control: cacheControlSchema.nullable().optional(),
});

export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
export type MessagesMessage = MessagesRequest['messages'][number];
export type MessagesContentBlock = Exclude<MessagesMessage['content'], string>[number];
