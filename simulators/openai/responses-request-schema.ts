import { z } from 'zod';

const inputContentSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  image_url: z.string().nullable().optional(),
  file_id: z.string().nullable().optional(),
  refusal: z.string().optional(),
});

const inputItemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']).optional(),
  content: z.union([z.string(), z.array(inputContentSchema)]).optional(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  output: z.union([z.string(), z.array(inputContentSchema)]).optional(),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).optional(),
});

/** Responses API request (docs/reference/openai.md §Responses). */
export const responsesRequestSchema = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), z.array(inputItemSchema)]).optional(),
  instructions: z.string().nullable().optional(),
  tools: z
    .array(
      z.looseObject({
        type: z.string(),
        name: z.string().optional(),
        description: z.string().nullable().optional(),
        parameters: z.unknown().optional(),
        strict: z.boolean().nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
  tool_choice: z
    .union([
      z.string(),
      z.looseObject({
        type: z.string(),
        name: z.string().optional(),
        mode: z.string().optional(),
        tools: z.array(z.looseObject({ type: z.string(), name: z.string().optional() })).optional(),
      }),
    ])
    .nullable()
    .optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  store: z.boolean().nullable().optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_obfuscation: z.boolean().optional() }).nullable().optional(),
  max_output_tokens: z.number().int().nullable().optional(),
  reasoning: z
    .looseObject({ effort: z.string().nullable().optional(), summary: z.string().nullable().optional() })
    .nullable()
    .optional(),
  text: z
    .looseObject({
      format: z
        .looseObject({ type: z.string(), name: z.string().optional(), schema: z.unknown().optional() })
        .optional(),
      verbosity: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  include: z.array(z.string()).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
export type ResponsesInputItem = Exclude<NonNullable<ResponsesRequest['input']>, string>[number];
