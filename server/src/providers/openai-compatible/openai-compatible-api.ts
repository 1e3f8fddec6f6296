import { z } from 'zod';

/**
 * Wire schemas for the places where OpenAI-dialect vendors leave OpenAI's format (docs/reference/openai-compatible-vendors.md). The common
 * shapes live in `openai/openai-api.ts`.
 */

/** DeepSeek context caching: hit + miss = prompt tokens. @see https://api-docs.deepseek.com/api/create-chat-completion */
export const deepSeekUsageSchema = z
  .object({ prompt_cache_hit_tokens: z.number().nullish(), prompt_cache_miss_tokens: z.number().nullish() })
  .loose();

/** Groq's older usage location, with timing fields, on the last chunk. @see https://console.groq.com/docs/api-reference */
export const groqChunkExtrasSchema = z
  .object({
    x_groq: z
      .object({
        usage: z
          .object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number().nullish() })
          .loose()
          .nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();

/** A FastAPI/pydantic validation failure as Mistral reports it inside `message`. */
export const validationDetailSchema = z.object({
  detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])).nullish(), msg: z.string() }).loose()),
});

/** Mistral and older vLLM: the error fields at the top level, without the `error` wrapper. */
export const unwrappedErrorBodySchema = z
  .object({
    object: z.literal('error'),
    message: z.union([z.string(), validationDetailSchema, z.record(z.string(), z.unknown())]),
    type: z.string().nullish(),
    param: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  })
  .loose();

/** llama.cpp, OpenRouter and newer vLLM: the `error` wrapper, with the HTTP status as an integer `code`. */
export const integerCodeErrorBodySchema = z.object({
  error: z
    .object({
      message: z.string(),
      type: z.string().nullish(),
      param: z.string().nullish(),
      code: z.number().int(),
    })
    .loose(),
});

/** xAI: a one-line `error` string next to a gRPC-style `code` sentence. */
export const stringErrorBodySchema = z.object({ code: z.string().nullish(), error: z.string() }).loose();
