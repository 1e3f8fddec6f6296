import { z } from 'zod';
import { ApiError } from '../../../api/api-client.ts';
import { parseJsonOrUndefined } from './parse-json.ts';
import { isWebUrl } from './is-web-url.ts';
import { readSse } from './read-sse.ts';
import { endedEarly, startStream, type StreamInput, type StreamOutcome } from './stream-outcome.ts';

const citationSchema = z.object({ type: z.literal('url_citation'), url: z.string(), title: z.string() });

const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('response.output_text.delta'), delta: z.string() }),
  z.object({ type: z.literal('response.output_text.annotation.added'), annotation: z.unknown() }),
  z.object({
    type: z.enum(['response.completed', 'response.incomplete']),
    response: z.object({
      usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), cost: z.number().optional() }).nullish(),
    }),
  }),
  z.object({
    type: z.literal('response.failed'),
    response: z.object({ error: z.object({ message: z.string(), code: z.string().nullish() }).nullish() }),
  }),
  z.object({ type: z.literal('error'), message: z.string(), code: z.string().nullish() }),
]);

/**
 * Streams `/v1/responses` with the `web_search` tool. The answer's `url_citation` annotations become the numbered
 * sources under it (each URL once, in order of first citation; only `http(s)` addresses, anything else is dropped);
 * `usage.cost` comes with `response.completed`.
 */
export async function streamWebSearch(input: StreamInput): Promise<StreamOutcome> {
  const started = await startStream('/v1/responses', {
    apiKey: input.apiKey,
    signal: input.signal,
    body: { model: input.model, input: input.messages, tools: [{ type: 'web_search' }], stream: true },
  });
  if ('outcome' in started) return started.outcome;
  const { response } = started;
  const outcome: StreamOutcome = {
    status: 'interrupted',
    content: '',
    requestId: response.headers.get('x-request-id') ?? undefined,
    usage: undefined,
    citations: [],
    error: undefined,
  };
  try {
    for await (const sse of readSse(response.body as ReadableStream<Uint8Array>)) {
      const parsed = eventSchema.safeParse(parseJsonOrUndefined(sse.data));
      if (!parsed.success) continue;
      const event = parsed.data;
      switch (event.type) {
        case 'response.output_text.delta':
          outcome.content += event.delta;
          input.onText(outcome.content);
          break;
        case 'response.output_text.annotation.added': {
          const citation = citationSchema.safeParse(event.annotation);
          const isNew = citation.success && !outcome.citations.some((known) => known.url === citation.data.url);
          if (citation.success && isNew && isWebUrl(citation.data.url)) {
            outcome.citations.push({ url: citation.data.url, title: citation.data.title });
          }
          break;
        }
        case 'response.completed':
        case 'response.incomplete': {
          const usage = event.response.usage;
          if (usage) {
            outcome.usage = {
              inputTokens: usage.input_tokens,
              outputTokens: usage.output_tokens,
              costUsd: usage.cost ?? 0,
            };
          }
          return { ...outcome, status: 'complete' };
        }
        case 'response.failed':
          return {
            ...outcome,
            status: 'failed',
            error: new ApiError({ message: event.response.error?.message ?? event.type, status: 502 }),
          };
        case 'error':
          return {
            ...outcome,
            status: 'failed',
            error: new ApiError({ message: event.message, status: 502, code: event.code ?? null }),
          };
      }
    }
  } catch {
    return { ...outcome, status: endedEarly(input.signal) };
  }
  return { ...outcome, status: input.signal.aborted ? 'stopped' : 'interrupted' };
}
