import type { TokenUsage } from '../billing/pricing.ts';
import type { ChatChunk, ChatCompletion, FinishReason } from '../openai-api/chat-completion.ts';
import type { ChatToolCall } from '../openai-api/chat-request.ts';
import { fromWireUsage } from '../pipeline/convert-usage.ts';
import { readNativeSearch, type NativeSearchEvent } from '../providers/shared/native-web-search.ts';
import type { ResponseBuilder } from './response-builder.ts';

/** What one model call produced, beyond what it already handed to the builder. */
export type RoundOutcome = {
  /** The vendor's own count; undefined when the answer ended before the vendor reported it. */
  vendorUsage: TokenUsage | undefined;
  finishReason: FinishReason | null;
  /** The model's text as written (with its `[n]` markers), to send back in the next round. */
  assistantText: string;
  /** Calls of the gateway's web search function: the gateway runs them. */
  searchCalls: ChatToolCall[];
  /** Calls of the client's functions: they end the response, the client runs them. */
  clientCallCount: number;
  deliveredTextBytes: number;
  firstTokenAtMs: number | undefined;
  /** What broke the stream (the upstream, or the client leaving), if it did not end normally. */
  error: unknown;
};

type RoundState = RoundOutcome & { callNames: Map<number, string>; searchArguments: Map<number, ChatToolCall> };

const encoder = new TextEncoder();

/**
 * Feeds a model answer (a whole completion or a chunk stream) into the builder: reasoning, text, refusal and the
 * client's function calls become output items as they arrive; calls of the gateway's search function are collected
 * instead, never shown as function calls.
 */
export async function consumeModelRound(input: {
  answer:
    | { kind: 'completion'; completion: ChatCompletion }
    | { kind: 'stream'; firstChunk: ChatChunk | undefined; chunks: AsyncIterator<ChatChunk> };
  builder: ResponseBuilder;
  searchFunctionName: string | undefined;
  /** `include: ["web_search_call.action.sources"]`: a vendor's own searches list the URLs they found. */
  isSourcesIncluded: boolean;
  /** A promise when the client's buffer is full: the next chunk is read once it has drained. */
  drain: () => Promise<void> | undefined;
  signal: AbortSignal;
  nowMs: () => number;
  /**
   * A streamed chunk reached the builder: what the round delivered so far (read lazily, when the node writes its
   * delivery checkpoints; the object keeps changing until the round ends).
   */
  onDelivered?: (soFar: Readonly<RoundOutcome>) => void;
}): Promise<RoundOutcome> {
  const state: RoundState = {
    vendorUsage: undefined,
    finishReason: null,
    assistantText: '',
    searchCalls: [],
    clientCallCount: 0,
    deliveredTextBytes: 0,
    firstTokenAtMs: undefined,
    error: undefined,
    callNames: new Map(),
    searchArguments: new Map(),
  };
  const step = { ...input, state };
  if (input.answer.kind === 'completion') {
    const { completion } = input.answer;
    const choice = completion.choices[0];
    if (completion.usage) state.vendorUsage = fromWireUsage(completion.usage);
    // A whole answer lists the vendor's searches first and cites its text after.
    const vendorEvents = readNativeSearch(completion);
    applyVendorSearch(
      input,
      vendorEvents.filter((event) => event.type === 'web_search'),
    );
    if (choice) {
      state.finishReason = choice.finish_reason;
      const message = choice.message;
      applyDelta(step, {
        reasoning: message.reasoning_content ?? '',
        content: message.content ?? '',
        refusal: message.refusal ?? '',
        toolCalls: (message.tool_calls ?? []).map((call, index) => ({
          index,
          id: call.id,
          function: { name: call.function.name, arguments: call.function.arguments },
        })),
      });
    }
    applyVendorSearch(
      input,
      vendorEvents.filter((event) => event.type === 'url_citation'),
    );
    return finishRound(state);
  }
  const { chunks } = input.answer;
  let chunk = input.answer.firstChunk;
  while (chunk !== undefined) {
    if (input.signal.aborted) {
      state.error = input.signal.reason;
      break;
    }
    if (chunk.usage) state.vendorUsage = fromWireUsage(chunk.usage);
    applyVendorSearch(input, readNativeSearch(chunk));
    const choice = chunk.choices[0];
    if (choice) {
      if (choice.finish_reason) state.finishReason = choice.finish_reason;
      applyDelta(step, {
        reasoning: choice.delta.reasoning_content ?? '',
        content: choice.delta.content ?? '',
        refusal: choice.delta.refusal ?? '',
        toolCalls: choice.delta.tool_calls ?? [],
      });
    }
    input.onDelivered?.(state);
    try {
      const drained = input.drain();
      if (drained) await drained;
      const next = await chunks.next();
      chunk = next.done ? undefined : next.value;
    } catch (error) {
      state.error = error;
      break;
    }
  }
  return finishRound(state);
}

function applyDelta(
  step: { builder: ResponseBuilder; searchFunctionName: string | undefined; nowMs: () => number; state: RoundState },
  delta: {
    reasoning: string;
    content: string;
    refusal: string;
    toolCalls: ReadonlyArray<{ index: number; id?: string; function: { name?: string; arguments?: string } }>;
  },
): void {
  const { builder, state } = step;
  let deliveredText = delta.reasoning + delta.content + delta.refusal;
  builder.reasoningDelta(delta.reasoning);
  builder.textDelta(delta.content);
  builder.refusalDelta(delta.refusal);
  state.assistantText += delta.content;
  for (const call of delta.toolCalls) {
    const name = state.callNames.get(call.index) ?? call.function.name ?? '';
    if (!state.callNames.has(call.index)) state.callNames.set(call.index, name);
    const argumentsDelta = call.function.arguments ?? '';
    if (step.searchFunctionName !== undefined && name === step.searchFunctionName) {
      const searchCall = state.searchArguments.get(call.index) ?? {
        id: call.id ?? `call_search_${call.index}`,
        type: 'function' as const,
        function: { name, arguments: '' },
      };
      searchCall.function.arguments += argumentsDelta;
      state.searchArguments.set(call.index, searchCall);
    } else {
      builder.functionCallDelta(call.index, { callId: call.id, name, arguments: argumentsDelta });
    }
    deliveredText += (call.function.name ?? '') + argumentsDelta;
  }
  const bytes = encoder.encode(deliveredText).length;
  if (bytes > 0 && state.firstTokenAtMs === undefined) state.firstTokenAtMs = step.nowMs();
  state.deliveredTextBytes += bytes;
}

/** The vendor's own searches and citations (NATIVE_WEB_SEARCH) become `web_search_call` items and annotations. */
function applyVendorSearch(
  input: { builder: ResponseBuilder; isSourcesIncluded: boolean },
  events: readonly NativeSearchEvent[],
): void {
  for (const event of events) {
    if (event.type === 'web_search') {
      input.builder.addVendorSearch({
        query: event.query,
        sourceUrls: input.isSourcesIncluded ? event.sourceUrls : undefined,
        isCompleted: event.isCompleted,
      });
    } else {
      input.builder.addVendorCitation({
        type: 'url_citation',
        url: event.url,
        title: event.title,
        start_index: event.startIndex,
        end_index: event.endIndex,
      });
    }
  }
}

function finishRound(state: RoundState): RoundOutcome {
  const clientCallNames = [...state.callNames.entries()].filter(([index]) => !state.searchArguments.has(index));
  return {
    vendorUsage: state.vendorUsage,
    finishReason: state.finishReason,
    assistantText: state.assistantText,
    searchCalls: [...state.searchArguments.values()],
    clientCallCount: clientCallNames.length,
    deliveredTextBytes: state.deliveredTextBytes,
    firstTokenAtMs: state.firstTokenAtMs,
    error: state.error,
  };
}
