import type { ChatChunk, Usage } from '../../openai-api/chat-completion.ts';
import type { SseEvent } from '../provider-adapter.ts';
import { createChunkBuilder, type ChunkBuilder } from '../shared/chunk-builder.ts';
import { createTruncatedStreamError, parseVendorBody } from '../shared/parse-vendor-body.ts';
import { convertGeminiUsage } from './convert-usage.ts';
import { convertStreamError, isErrorEvent } from './errors.ts';
import { geminiResponseSchema, type GeminiCandidate } from './gemini-api.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { readCandidateParts } from './read-candidate-parts.ts';

/** What a Gemini stream has shown so far. */
type StreamState = {
  id: string;
  builder: ChunkBuilder;
  /** Gemini repeats running totals on every chunk; only the last is sent. */
  usage: Usage | undefined;
  finishReasons: Map<number, string>;
  toolCallCounts: Map<number, number>;
  isPromptBlocked: boolean;
};

/**
 * Gemini `streamGenerateContent?alt=sse` events (each a partial GenerateContentResponse with only the new parts; no
 * `[DONE]`: the stream ends when the connection closes) → OpenAI chunks. Function calls arrive whole: each is sent as
 * its opening delta followed by one delta with the complete arguments. Finish chunks and the usage chunk are sent when the stream ends,
 * after every part; a stream that closes before any finish reason was cut off.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export async function* convertStream(input: {
  events: AsyncIterable<SseEvent>;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
}): AsyncGenerator<ChatChunk> {
  const state: StreamState = {
    id: input.id,
    builder: createChunkBuilder({ id: input.id, created: input.createdUnixSeconds, model: input.requestedModel }),
    usage: undefined,
    finishReasons: new Map(),
    toolCallCounts: new Map(),
    isPromptBlocked: false,
  };
  for await (const event of input.events) {
    if (isErrorEvent(event.data)) throw convertStreamError(event.data);
    yield* onChunk(state, event.data);
  }
  yield* onEnd(state);
}

function onChunk(state: StreamState, data: unknown): ChatChunk[] {
  const response = parseVendorBody(geminiResponseSchema, data, 'Gemini');
  if (response.usageMetadata) state.usage = convertGeminiUsage(response.usageMetadata);
  const candidates = response.candidates ?? [];
  if (candidates.length === 0 && response.promptFeedback?.blockReason) state.isPromptBlocked = true;
  return candidates.flatMap((candidate, position) => onCandidate(state, candidate, position));
}

function onCandidate(state: StreamState, candidate: GeminiCandidate, position: number): ChatChunk[] {
  const index = candidate.index ?? position;
  const toolCallOffset = state.toolCallCounts.get(index) ?? 0;
  const delta = readCandidateParts({
    parts: candidate.content?.parts ?? [],
    completionId: state.id,
    choiceIndex: index,
    toolCallOffset,
  });
  state.toolCallCounts.set(index, toolCallOffset + delta.toolCalls.length);
  if (candidate.finishReason) state.finishReasons.set(index, candidate.finishReason);
  return [
    ...state.builder.reasoning(index, delta.reasoning),
    ...state.builder.content(index, delta.text),
    ...delta.toolCalls.flatMap((call) => state.builder.startToolCall(index, call).chunks),
  ];
}

function onEnd(state: StreamState): ChatChunk[] {
  if (state.finishReasons.size === 0 && !state.isPromptBlocked) throw createTruncatedStreamError('Gemini');
  const finishes =
    state.finishReasons.size === 0
      ? state.builder.finish(0, 'content_filter')
      : [...state.finishReasons].flatMap(([index, reason]) =>
          state.builder.finish(index, mapFinishReason(reason, state.builder.hasToolCalls(index))),
        );
  return [...finishes, ...(state.usage === undefined ? [] : state.builder.usage(state.usage))];
}
