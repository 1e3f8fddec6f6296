import { z } from 'zod';

/**
 * OpenAI Responses API wire schemas for what the vendor sends back (docs/reference/openai.md §Responses), written liberally:
 * fields the gateway does not read are optional or absent, extras are kept (`loose`), and unknown output item types
 * (file search, code interpreter, …) are tolerated and skipped.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export const responsesUrlCitationSchema = z
  .object({
    type: z.literal('url_citation'),
    url: z.string(),
    title: z.string().nullish(),
    start_index: z.number().int().nonnegative(),
    end_index: z.number().int().nonnegative(),
  })
  .loose();

export const outputTextSchema = z
  .object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()).nullish() })
  .loose();
export const refusalSchema = z.object({ type: z.literal('refusal'), refusal: z.string() }).loose();
const otherPartSchema = z.object({ type: z.string() }).loose();

export const responsesMessageItemSchema = z
  .object({
    type: z.literal('message'),
    id: z.string().nullish(),
    status: z.string().nullish(),
    content: z.array(z.union([outputTextSchema, refusalSchema, otherPartSchema])),
  })
  .loose();

export const responsesFunctionCallItemSchema = z
  .object({
    type: z.literal('function_call'),
    id: z.string().nullish(),
    call_id: z.string(),
    name: z.string(),
    arguments: z.string(),
  })
  .loose();

/** `action` is absent on older traffic (docs/reference/openai.md §Responses [observed]); `sources` only with the `include` asked for. */
export const responsesWebSearchCallItemSchema = z
  .object({
    type: z.literal('web_search_call'),
    id: z.string().nullish(),
    status: z.string().nullish(),
    action: z
      .object({
        type: z.string(),
        query: z.string().nullish(),
        queries: z.array(z.string()).nullish(),
        sources: z.array(z.object({ type: z.string(), url: z.string() }).loose()).nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();

export const responsesReasoningItemSchema = z
  .object({
    type: z.literal('reasoning'),
    summary: z.array(z.object({ text: z.string() }).loose()).nullish(),
    content: z.array(z.object({ text: z.string() }).loose()).nullish(),
  })
  .loose();

const nullableCount = z.number().int().nonnegative().nullish();

export const responsesUsageSchema = z
  .object({
    input_tokens: nullableCount,
    input_tokens_details: z.object({ cached_tokens: nullableCount }).loose().nullish(),
    output_tokens: nullableCount,
    output_tokens_details: z.object({ reasoning_tokens: nullableCount }).loose().nullish(),
    total_tokens: nullableCount,
  })
  .loose();

export const responsesObjectSchema = z
  .object({
    id: z.string().nullish(),
    status: z.string().nullish(),
    output: z.array(z.object({ type: z.string() }).loose()),
    incomplete_details: z.object({ reason: z.string().nullish() }).loose().nullish(),
    error: z.object({ code: z.string().nullish(), message: z.string() }).loose().nullish(),
    usage: responsesUsageSchema.nullish(),
  })
  .loose();

/** Every stream event names itself; the converter reads each known type with its own schema below. */
export const responsesEventTypeSchema = z.object({ type: z.string() }).loose();

export const responsesLifecycleEventSchema = z.object({ type: z.string(), response: responsesObjectSchema }).loose();

export const responsesItemEventSchema = z
  .object({ output_index: z.number().int().nonnegative(), item: z.object({ type: z.string() }).loose() })
  .loose();

export const responsesDeltaEventSchema = z
  .object({ output_index: z.number().int().nonnegative(), delta: z.string() })
  .loose();

export const responsesAnnotationEventSchema = z
  .object({ output_index: z.number().int().nonnegative(), annotation: z.object({ type: z.string() }).loose() })
  .loose();

/** The `error` event: `{type: "error", code, message, param}` (docs/reference/openai.md §Responses). */
export const responsesErrorEventSchema = z
  .object({ code: z.string().nullish(), message: z.string(), param: z.string().nullish() })
  .loose();

export type ResponsesObject = z.infer<typeof responsesObjectSchema>;
export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;
export type ResponsesWebSearchCallItem = z.infer<typeof responsesWebSearchCallItemSchema>;
