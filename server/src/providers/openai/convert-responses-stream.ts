import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import { countCodePoints } from '../../lib/code-point-offsets.ts';
import { UpstreamFailureError, type SseEvent } from '../provider-adapter.ts';
import { createChunkBuilder, type ChunkBuilder } from '../shared/chunk-builder.ts';
import { createUpstreamFailure } from '../shared/create-upstream-failure.ts';
import { createNativeSearchChunk, type WithNativeSearch } from '../shared/native-web-search.ts';
import { createTruncatedStreamError, parseVendorBody } from '../shared/parse-vendor-body.ts';
import {
  convertResponsesUsage,
  convertWebSearchCall,
  createFailedResponseError,
  mapResponsesFinishReason,
  readCitations,
} from './convert-responses-response.ts';
import {
  responsesAnnotationEventSchema,
  responsesDeltaEventSchema,
  responsesErrorEventSchema,
  responsesEventTypeSchema,
  responsesFunctionCallItemSchema,
  responsesItemEventSchema,
  responsesLifecycleEventSchema,
  responsesWebSearchCallItemSchema,
} from './responses-api.ts';

const vendorName = 'OpenAI';

type StreamState = {
  builder: ChunkBuilder;
  identity: { id: string; created: number; model: string };
  /** Output index of each function call → its tool index, and whether arguments came as deltas. */
  calls: Map<number, { toolIndex: number; hasArguments: boolean }>;
  /** Code points of answer text since the last search, and at the start of each message item. */
  textLength: number;
  messageStarts: Map<number, number>;
  isDone: boolean;
};

type Chunk = WithNativeSearch<ChatChunk>;

/**
 * Responses API stream events (docs/reference/openai.md §Responses) → OpenAI chunks with the vendor's search events: text, refusal and
 * reasoning deltas as content, refusal and reasoning; `function_call` items as tool calls; a finished
 * `web_search_call` item and each `output_text.annotation.added` as search events in their place; the terminal event
 * (`response.completed` or `response.incomplete`) as the finish reason and usage. `error` and `response.failed`
 * end the stream with an UpstreamFailureError; a stream without its terminal event is truncated.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export async function* convertResponsesStream(input: {
  events: AsyncIterable<SseEvent>;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
}): AsyncGenerator<Chunk> {
  const identity = { id: input.id, created: input.createdUnixSeconds, model: input.requestedModel };
  const state: StreamState = {
    builder: createChunkBuilder(identity),
    identity,
    calls: new Map(),
    textLength: 0,
    messageStarts: new Map(),
    isDone: false,
  };
  for await (const event of input.events) {
    yield* onEvent(state, event.data);
    if (state.isDone) return;
  }
  throw createTruncatedStreamError(vendorName);
}

function onEvent(state: StreamState, data: unknown): Chunk[] {
  const { type } = parseVendorBody(responsesEventTypeSchema, data, vendorName);
  switch (type) {
    case 'response.output_item.added':
      return onItemAdded(state, data);
    case 'response.output_item.done':
      return onItemDone(state, data);
    case 'response.output_text.delta': {
      const { delta } = parseVendorBody(responsesDeltaEventSchema, data, vendorName);
      state.textLength += countCodePoints(delta);
      return state.builder.content(0, delta);
    }
    case 'response.refusal.delta':
      return state.builder.refusal(0, parseVendorBody(responsesDeltaEventSchema, data, vendorName).delta);
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      return state.builder.reasoning(0, parseVendorBody(responsesDeltaEventSchema, data, vendorName).delta);
    case 'response.function_call_arguments.delta':
      return onArgumentsDelta(state, data);
    case 'response.output_text.annotation.added':
      return onAnnotation(state, data);
    case 'response.completed':
    case 'response.incomplete':
      return onTerminal(state, data);
    case 'response.failed':
      throw createFailedResponseError(parseVendorBody(responsesLifecycleEventSchema, data, vendorName).response);
    case 'error':
      throw createStreamError(data);
    default:
      return [];
  }
}

function onItemAdded(state: StreamState, data: unknown): Chunk[] {
  const event = parseVendorBody(responsesItemEventSchema, data, vendorName);
  if (event.item.type === 'message') state.messageStarts.set(event.output_index, state.textLength);
  if (event.item.type !== 'function_call') return [];
  const call = parseVendorBody(responsesFunctionCallItemSchema, event.item, vendorName);
  const opened = state.builder.startToolCall(0, { id: call.call_id, name: call.name, arguments: '' });
  state.calls.set(event.output_index, { toolIndex: opened.toolIndex, hasArguments: false });
  return opened.chunks;
}

/** A finished search is reported where it happened; text after it starts a new count for citation offsets. */
function onItemDone(state: StreamState, data: unknown): Chunk[] {
  const event = parseVendorBody(responsesItemEventSchema, data, vendorName);
  if (event.item.type === 'web_search_call') {
    const search = convertWebSearchCall(parseVendorBody(responsesWebSearchCallItemSchema, event.item, vendorName));
    state.textLength = 0;
    state.messageStarts.clear();
    return [createNativeSearchChunk(state.identity, [search])];
  }
  const call = state.calls.get(event.output_index);
  if (event.item.type !== 'function_call' || !call || call.hasArguments) return [];
  // A call whose arguments never streamed as deltas carries them whole on its finished item.
  call.hasArguments = true;
  const item = parseVendorBody(responsesFunctionCallItemSchema, event.item, vendorName);
  return state.builder.toolArguments(0, call.toolIndex, item.arguments === '' ? '{}' : item.arguments);
}

function onArgumentsDelta(state: StreamState, data: unknown): Chunk[] {
  const event = parseVendorBody(responsesDeltaEventSchema, data, vendorName);
  const call = state.calls.get(event.output_index);
  if (!call || event.delta === '') return [];
  call.hasArguments = true;
  return state.builder.toolArguments(0, call.toolIndex, event.delta);
}

function onAnnotation(state: StreamState, data: unknown): Chunk[] {
  const event = parseVendorBody(responsesAnnotationEventSchema, data, vendorName);
  const citations = readCitations([event.annotation], state.messageStarts.get(event.output_index) ?? 0);
  return citations.length === 0 ? [] : [createNativeSearchChunk(state.identity, citations)];
}

function onTerminal(state: StreamState, data: unknown): Chunk[] {
  const { response } = parseVendorBody(responsesLifecycleEventSchema, data, vendorName);
  state.isDone = true;
  const finishReason = mapResponsesFinishReason(response, state.calls.size > 0);
  return [
    ...state.builder.finish(0, finishReason),
    ...(response.usage ? state.builder.usage(convertResponsesUsage(response.usage)) : []),
  ];
}

/** The `error` event carries no HTTP status: a rate limit is a 429, anything else a failed upstream (502). */
function createStreamError(data: unknown): UpstreamFailureError {
  const error = parseVendorBody(responsesErrorEventSchema, data, vendorName);
  const code = error.code ?? undefined;
  return new UpstreamFailureError(
    createUpstreamFailure({
      status: code === 'rate_limit_exceeded' ? 429 : 502,
      headers: {},
      vendorMessage: error.message,
      vendorCode: code ?? 'stream_error',
    }),
  );
}
