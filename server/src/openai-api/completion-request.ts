import { z } from 'zod';

/** The most choices one legacy completion may ask for (`n`, and `best_of`, which must equal it here). */
export const maxCompletionChoices = 8;

/**
 * `POST /v1/completions`, the legacy Completions API (`CreateCompletionRequest`), as the gateway takes it.
 * @see https://platform.openai.com/docs/api-reference/completions/create
 */
export const completionRequestSchema = z
  .object({
    model: z.string().min(1),
    prompt: z.union([z.string(), z.array(z.string()), z.array(z.number().int()), z.array(z.array(z.number().int()))]),
    suffix: z.string().nullable().optional(),
    max_tokens: z.number().int().min(1).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    n: z.number().int().min(1).max(maxCompletionChoices).nullable().optional(),
    best_of: z.number().int().min(1).max(maxCompletionChoices).nullable().optional(),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullable().optional(),
    logprobs: z.number().int().min(0).max(5).nullable().optional(),
    echo: z.boolean().nullable().optional(),
    stop: z
      .union([z.string(), z.array(z.string()).min(1).max(4)])
      .nullable()
      .optional(),
    presence_penalty: z.number().min(-2).max(2).nullable().optional(),
    frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
    seed: z.number().int().nullable().optional(),
    user: z.string().optional(),
  })
  .loose();

export type CompletionRequest = z.infer<typeof completionRequestSchema>;

type CompletionFinishReason = 'stop' | 'length' | 'content_filter';

/** `CreateCompletionResponse`, and each chunk of its stream, with the gateway's `usage.cost`. */
export type TextCompletion = {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: Array<{ text: string; index: number; logprobs: null; finish_reason: CompletionFinishReason | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost?: number } | null;
};
