import type { ChatChunk, Usage } from '../../openai-api/chat-completion.ts';
import type { SseEvent, StreamEventConverter } from '../provider-adapter.ts';
import { markRelayed } from '../shared/relayed-chunk.ts';
import { createChunkBuilder, type ChunkBuilder } from '../shared/chunk-builder.ts';
import { createTruncatedStreamError, parseVendorBody } from '../shared/parse-vendor-body.ts';
import { deriveToolCallId } from '../shared/tool-call-id.ts';
import { convertLogprobs, readReasoning } from './convert-message-parts.ts';
import { finishChoice } from './convert-response.ts';
import type { DialectQuirks } from './dialect-quirks.ts';
import { convertMidStreamError, isErrorEvent } from './errors.ts';
import { relayOpenAiChunk } from './relay-chunk.ts';
import { openAiChunkSchema, type OpenAiChunk, type OpenAiToolCallDelta } from './openai-api.ts';

type ChunkChoice = NonNullable<OpenAiChunk['choices']>[number];
type ToolCallEntry = { toolIndex: number; upstreamId: string | undefined };

/**
 * What an OpenAI-dialect stream has shown so far. Vendors place usage differently (a final `choices: []` chunk, the
 * finish chunk for Together, the second-to-last chunk for xAI, `x_groq.usage` on Groq), so usage is collected from
 * any chunk and sent once, after every choice finished.
 */
type StreamState = {
  id: string;
  builder: ChunkBuilder;
  quirks: DialectQuirks;
  usage: Usage | undefined;
  extraUsage: Usage | undefined;
  /** By `<choice>:<upstream index>`: the tool call the gateway numbered for it. */
  toolCalls: Map<string, ToolCallEntry>;
  hasFinishedAny: boolean;
};

type ConvertStreamInput = {
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
  quirks: DialectQuirks;
  /** OpenAI's own streams: chunks already in the builder's form are forwarded as sent (`relay-chunk.ts`). */
  relaysChunks?: boolean;
};

/**
 * OpenAI-dialect chunks → canonical chunks rebuilt through the chunk builder (so vendor extras never reach a delta).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
export async function* convertStream(
  input: ConvertStreamInput & { events: AsyncIterable<SseEvent> },
): AsyncGenerator<ChatChunk> {
  const converter = createStreamConverter(input);
  const chunks: ChatChunk[] = [];
  for await (const event of input.events) {
    converter.onEvent(event, chunks);
    yield* chunks.splice(0);
  }
  converter.onEnd(chunks);
  yield* chunks;
}

/** The same conversion one event at a time, for the gateway's streamed path (`read-event-stream.ts`). */
export function createStreamConverter(input: ConvertStreamInput): StreamEventConverter {
  const state: StreamState = {
    id: input.id,
    builder: createChunkBuilder({ id: input.id, created: input.createdUnixSeconds, model: input.requestedModel }),
    quirks: input.quirks,
    usage: undefined,
    extraUsage: undefined,
    toolCalls: new Map(),
    hasFinishedAny: false,
  };
  const identity = input.relaysChunks
    ? {
        id: JSON.stringify(input.id),
        created: String(input.createdUnixSeconds),
        model: JSON.stringify(input.requestedModel),
      }
    : undefined;
  return {
    onEvent: (event, out) => {
      if (isErrorEvent(event.data, input.quirks)) throw convertMidStreamError(event.data, input.quirks);
      const relayed = identity === undefined ? undefined : relayOpenAiChunk(event, state.builder, identity);
      if (relayed === undefined) out.push(...onChunk(state, event.data));
      else {
        state.hasFinishedAny ||= relayed.isFinishing;
        out.push(markRelayed(relayed.chunk, relayed.json));
      }
    },
    onEnd: (out) => {
      out.push(...onEnd(state));
    },
  };
}

function onChunk(state: StreamState, data: unknown): ChatChunk[] {
  const chunk = parseVendorBody(openAiChunkSchema, data, state.quirks.vendorName);
  if (chunk.usage) state.usage = state.quirks.convertUsage(chunk.usage);
  state.extraUsage = state.quirks.findExtraUsage(chunk) ?? state.extraUsage;
  return (chunk.choices ?? []).flatMap((choice, position) => onChoiceDelta(state, choice, position));
}

function onChoiceDelta(state: StreamState, choice: ChunkChoice, position: number): ChatChunk[] {
  const index = choice.index ?? position;
  const delta = choice.delta ?? {};
  const { builder } = state;
  const chunks = [
    ...builder.reasoning(index, readReasoning(delta, state.quirks)),
    ...builder.content(index, delta.content ?? '', convertLogprobs(choice.logprobs)),
    ...builder.refusal(index, delta.refusal ?? ''),
    ...(delta.tool_calls ?? []).flatMap((call, callPosition) => onToolCallDelta(state, index, call, callPosition)),
  ];
  if (choice.finish_reason) {
    state.hasFinishedAny = true;
    chunks.push(
      ...builder.finish(index, finishChoice(choice.finish_reason, builder.hasToolCalls(index), state.quirks)),
    );
  }
  return chunks;
}

/**
 * The first delta for an upstream index opens a call; later ones add argument fragments. A delta that reuses an
 * index with a new id and a name opens a new call (some servers send every parallel call at index 0).
 */
function onToolCallDelta(
  state: StreamState,
  choiceIndex: number,
  call: OpenAiToolCallDelta,
  position: number,
): ChatChunk[] {
  const key = `${choiceIndex}:${call.index ?? position}`;
  const known = state.toolCalls.get(key);
  const upstreamId = call.id ?? undefined;
  const isNewCall =
    known === undefined ||
    (upstreamId !== undefined && upstreamId !== known.upstreamId && Boolean(call.function?.name));
  if (!isNewCall) return state.builder.toolArguments(choiceIndex, known.toolIndex, call.function?.arguments ?? '');
  const counter = state.toolCalls.size;
  const opened = state.builder.startToolCall(choiceIndex, {
    id: upstreamId ?? deriveToolCallId([state.id, choiceIndex, counter]),
    name: call.function?.name ?? '',
    arguments: call.function?.arguments ?? '',
  });
  state.toolCalls.set(key, { toolIndex: opened.toolIndex, upstreamId });
  return opened.chunks;
}

function onEnd(state: StreamState): ChatChunk[] {
  if (!state.hasFinishedAny || state.builder.unfinishedChoices().length > 0) {
    throw createTruncatedStreamError(state.quirks.vendorName);
  }
  const usage = state.usage ?? state.extraUsage;
  return usage === undefined ? [] : state.builder.usage(usage);
}
