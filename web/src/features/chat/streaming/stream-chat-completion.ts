import { z } from 'zod';
import { toApiError } from '../../../api/api-client.ts';
import { parseJsonOrUndefined } from './parse-json.ts';
import { readSse } from './read-sse.ts';
import { endedEarly, startStream, type StreamInput, type StreamOutcome } from './stream-outcome.ts';

const chunkSchema = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).partial().optional() })).optional(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), cost: z.number().optional() }).nullish(),
  error: z.unknown().optional(),
});

/**
 * Streams `/v1/chat/completions` with `stream_options.include_usage`, so the last chunk carries the tokens and
 * `usage.cost`. Stop aborts the request: the gateway cancels the upstream call and bills only what was generated.
 */
export async function streamChatCompletion(input: StreamInput): Promise<StreamOutcome> {
  const started = await startStream('/v1/chat/completions', {
    apiKey: input.apiKey,
    signal: input.signal,
    body: { model: input.model, messages: input.messages, stream: true, stream_options: { include_usage: true } },
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
    for await (const event of readSse(response.body as ReadableStream<Uint8Array>)) {
      if (event.data === '[DONE]') return { ...outcome, status: 'complete' };
      const chunk = chunkSchema.safeParse(parseJsonOrUndefined(event.data));
      if (!chunk.success) continue;
      if (chunk.data.error !== undefined) {
        return { ...outcome, status: 'failed', error: toApiError({ error: chunk.data.error }, 502) };
      }
      const text = chunk.data.choices?.[0]?.delta?.content;
      if (text) {
        outcome.content += text;
        input.onText(outcome.content);
      }
      const usage = chunk.data.usage;
      if (usage) {
        outcome.usage = {
          inputTokens: usage.prompt_tokens,
          outputTokens: usage.completion_tokens,
          costUsd: usage.cost ?? 0,
        };
      }
    }
  } catch {
    return { ...outcome, status: endedEarly(input.signal) };
  }
  // The body ended without `[DONE]`: the connection was cut.
  return { ...outcome, status: input.signal.aborted ? 'stopped' : 'interrupted' };
}
