import { z } from 'zod';

/**
 * OpenAI Chat Completions wire schemas for what upstreams send back (docs/reference/openai.md §Chat Completions), written liberally:
 * every OpenAI-dialect vendor is read through them (docs/reference/openai-compatible-vendors.md), so optional and nullable fields are tolerated
 * and vendor extras are kept (`loose`) for the quirk hooks to read.
 */
const nullableNumber = z.number().nullish();

export const openAiUsageSchema = z
  .object({
    prompt_tokens: nullableNumber,
    completion_tokens: nullableNumber,
    total_tokens: nullableNumber,
    prompt_tokens_details: z
      .object({ cached_tokens: nullableNumber, cache_write_tokens: nullableNumber })
      .loose()
      .nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: nullableNumber }).loose().nullish(),
  })
  .loose();

const topLogprobSchema = z.object({
  token: z.string(),
  logprob: z.number(),
  bytes: z.array(z.number()).nullish(),
});
const tokenLogprobSchema = topLogprobSchema.extend({ top_logprobs: z.array(topLogprobSchema).nullish() });
export const openAiLogprobsSchema = z
  .object({ content: z.array(tokenLogprobSchema).nullish(), refusal: z.array(tokenLogprobSchema).nullish() })
  .loose();

const toolCallSchema = z
  .object({
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).loose(),
  })
  .loose();

/** Reasoning text: `reasoning_content` (DeepSeek, xAI, vLLM, llama.cpp) or `reasoning` (vLLM, Ollama, OpenRouter). */
const reasoningFields = { reasoning_content: z.string().nullish(), reasoning: z.string().nullish() };

const messageSchema = z
  .object({
    content: z.string().nullish(),
    refusal: z.string().nullish(),
    tool_calls: z.array(toolCallSchema).nullish(),
    ...reasoningFields,
  })
  .loose();

export const openAiCompletionSchema = z
  .object({
    id: z.string().nullish(),
    choices: z.array(
      z
        .object({
          index: z.number().int().nonnegative().nullish(),
          message: messageSchema,
          finish_reason: z.string().nullish(),
          logprobs: openAiLogprobsSchema.nullish(),
        })
        .loose(),
    ),
    usage: openAiUsageSchema.nullish(),
    system_fingerprint: z.string().nullish(),
  })
  .loose();

const toolCallDeltaSchema = toolCallSchema.extend({
  index: z.number().int().nonnegative().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).loose().nullish(),
});

export const openAiChunkSchema = z
  .object({
    choices: z
      .array(
        z
          .object({
            index: z.number().int().nonnegative().nullish(),
            delta: messageSchema.extend({ tool_calls: z.array(toolCallDeltaSchema).nullish() }).nullish(),
            finish_reason: z.string().nullish(),
            logprobs: openAiLogprobsSchema.nullish(),
          })
          .loose(),
      )
      .nullish(),
    usage: openAiUsageSchema.nullish(),
  })
  .loose();

/** `{"error": {message, type, param, code}}` (docs/reference/openai.md §Errors); other dialects' shapes are quirk hooks. */
export const openAiErrorBodySchema = z.object({
  error: z
    .object({
      message: z.string(),
      type: z.string().nullish(),
      param: z.string().nullish(),
      code: z.string().nullish(),
    })
    .loose(),
});

export type OpenAiUsage = z.infer<typeof openAiUsageSchema>;
export type OpenAiLogprobs = z.infer<typeof openAiLogprobsSchema>;
export type OpenAiCompletion = z.infer<typeof openAiCompletionSchema>;
export type OpenAiChunk = z.infer<typeof openAiChunkSchema>;
export type OpenAiMessage = z.infer<typeof messageSchema>;
export type OpenAiToolCallDelta = z.infer<typeof toolCallDeltaSchema>;
