import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import type { SseEvent } from '../provider-adapter.ts';
import { createChunkBuilder, type ChunkBuilder } from '../shared/chunk-builder.ts';
import { createTruncatedStreamError, parseVendorBody } from '../shared/parse-vendor-body.ts';
import { attachSignature } from '../shared/tool-call-id.ts';
import {
  contentBlockDeltaEventSchema,
  contentBlockStartEventSchema,
  contentBlockStopEventSchema,
  messageDeltaEventSchema,
  messageStartEventSchema,
  streamEventTypeSchema,
  type AnthropicUsage,
} from './anthropic-api.ts';
import { convertAnthropicUsage, mergeAnthropicUsage } from './convert-usage.ts';
import { convertStreamError } from './errors.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { readKnownBlock, readKnownDelta } from './read-known-block.ts';

type BlockState =
  | { kind: 'text' }
  | { kind: 'thinking' }
  | { kind: 'tool'; toolIndex: number; hasArguments: boolean }
  | { kind: 'skipped' };

/** What an Anthropic stream has shown so far (one choice: Anthropic has no `n`). */
type StreamState = {
  builder: ChunkBuilder;
  usage: AnthropicUsage;
  stopReason: string | null | undefined;
  blocks: Map<number, BlockState>;
  /** Signatures of finished thinking blocks; exactly one rides on the first tool call's id. */
  thinkingSignatures: string[];
  thinkingBlockCount: number;
  toolCallCount: number;
  hasStopped: boolean;
};

/**
 * Anthropic's named events → OpenAI chunks: `message_start` (input usage) → `content_block_start` / `_delta` /
 * `_stop` per block → `message_delta` (stop reason, cumulative usage) → `message_stop`. `ping` and unknown events are
 * skipped; `error` ends the stream with an UpstreamFailureError.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* convertStream(input: {
  events: AsyncIterable<SseEvent>;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
}): AsyncGenerator<ChatChunk> {
  const state: StreamState = {
    builder: createChunkBuilder({ id: input.id, created: input.createdUnixSeconds, model: input.requestedModel }),
    usage: {},
    stopReason: undefined,
    blocks: new Map(),
    thinkingSignatures: [],
    thinkingBlockCount: 0,
    toolCallCount: 0,
    hasStopped: false,
  };
  for await (const event of input.events) {
    yield* onEvent(state, event.data);
    if (state.hasStopped) break;
  }
  // A stream cut after `message_delta` has its stop reason and final usage: the answer is complete.
  if (!state.hasStopped && state.stopReason === undefined) throw createTruncatedStreamError('Anthropic');
  yield* state.builder.finish(0, mapFinishReason(state.stopReason));
  yield* state.builder.usage(convertAnthropicUsage(state.usage));
}

function onEvent(state: StreamState, data: unknown): ChatChunk[] {
  const { type } = parseVendorBody(streamEventTypeSchema, data, 'Anthropic');
  switch (type) {
    case 'message_start':
      state.usage = parseVendorBody(messageStartEventSchema, data, 'Anthropic').message.usage;
      return [];
    case 'content_block_start':
      return onBlockStart(state, data);
    case 'content_block_delta':
      return onBlockDelta(state, data);
    case 'content_block_stop':
      return onBlockStop(state, data);
    case 'message_delta':
      return onMessageDelta(state, data);
    case 'message_stop':
      state.hasStopped = true;
      return [];
    case 'error':
      throw convertStreamError(data);
    default:
      return [];
  }
}

function onBlockStart(state: StreamState, data: unknown): ChatChunk[] {
  const event = parseVendorBody(contentBlockStartEventSchema, data, 'Anthropic');
  const block = readKnownBlock(event.content_block);
  switch (block?.type) {
    case 'text':
      state.blocks.set(event.index, { kind: 'text' });
      return state.builder.content(0, block.text);
    case 'thinking':
      state.blocks.set(event.index, { kind: 'thinking' });
      state.thinkingBlockCount += 1;
      return state.builder.reasoning(0, block.thinking);
    case 'tool_use': {
      const signature = state.thinkingBlockCount === 1 ? state.thinkingSignatures[0] : undefined;
      const id = state.toolCallCount === 0 ? attachSignature(block.id, signature) : block.id;
      state.toolCallCount += 1;
      const opened = state.builder.startToolCall(0, { id, name: block.name, arguments: '' });
      state.blocks.set(event.index, { kind: 'tool', toolIndex: opened.toolIndex, hasArguments: false });
      return opened.chunks;
    }
    case undefined:
      state.blocks.set(event.index, { kind: 'skipped' });
      return [];
  }
}

function onBlockDelta(state: StreamState, data: unknown): ChatChunk[] {
  const event = parseVendorBody(contentBlockDeltaEventSchema, data, 'Anthropic');
  const delta = readKnownDelta(event.delta);
  const block = state.blocks.get(event.index);
  switch (delta?.type) {
    case 'text_delta':
      return block?.kind === 'text' ? state.builder.content(0, delta.text) : [];
    case 'thinking_delta':
      return block?.kind === 'thinking' ? state.builder.reasoning(0, delta.thinking) : [];
    case 'signature_delta':
      if (block?.kind === 'thinking') state.thinkingSignatures.push(delta.signature);
      return [];
    case 'input_json_delta':
      if (block?.kind !== 'tool' || delta.partial_json === '') return [];
      block.hasArguments = true;
      return state.builder.toolArguments(0, block.toolIndex, delta.partial_json);
    case undefined:
      return [];
  }
}

/** A tool call that streamed no argument fragment takes `{}`: clients parse `arguments` as JSON. */
function onBlockStop(state: StreamState, data: unknown): ChatChunk[] {
  const event = parseVendorBody(contentBlockStopEventSchema, data, 'Anthropic');
  const block = state.blocks.get(event.index);
  if (block?.kind !== 'tool' || block.hasArguments) return [];
  block.hasArguments = true;
  return state.builder.toolArguments(0, block.toolIndex, '{}');
}

function onMessageDelta(state: StreamState, data: unknown): ChatChunk[] {
  const event = parseVendorBody(messageDeltaEventSchema, data, 'Anthropic');
  state.stopReason = event.delta.stop_reason ?? state.stopReason;
  if (event.usage) state.usage = mergeAnthropicUsage(state.usage, event.usage);
  return [];
}
