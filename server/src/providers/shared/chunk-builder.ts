import type { ChatChunk, ChoiceLogprobs, ChunkDelta, FinishReason, Usage } from '../../openai-api/chat-completion.ts';

type ChoiceState = { hasRole: boolean; isFinished: boolean; toolCallCount: number };

/**
 * Assembles OpenAI chunks for every vendor stream, so the SDK invariants of docs/reference/openai.md §Streaming hold in one place:
 * one `id`, `created` and `model` on every chunk; `role` on the first delta of each choice only; a tool call's
 * identity (`id`, `type`, `function.name`) on its first delta only, with a dense `index` per choice; a last choice
 * chunk with `delta: {}` and the finish reason; usage on a final chunk with `choices: []`. Each method returns the
 * chunks to send (possibly none); deltas after a choice finished are dropped.
 */
export type ChunkBuilder = {
  content: (choiceIndex: number, text: string, logprobs?: ChoiceLogprobs | null) => ChatChunk[];
  refusal: (choiceIndex: number, text: string) => ChatChunk[];
  reasoning: (choiceIndex: number, text: string) => ChatChunk[];
  /**
   * Opens a tool call: its first delta carries the identity and `arguments: ""`. Vendors that send calls whole
   * (Gemini, Mistral) pass the complete arguments, which follow at once as one arguments delta.
   */
  startToolCall: (
    choiceIndex: number,
    call: { id: string; name: string; arguments: string },
  ) => { chunks: ChatChunk[]; toolIndex: number };
  toolArguments: (choiceIndex: number, toolIndex: number, fragment: string) => ChatChunk[];
  finish: (choiceIndex: number, reason: FinishReason) => ChatChunk[];
  usage: (usage: Usage) => ChatChunk[];
  hasToolCalls: (choiceIndex: number) => boolean;
  isFinished: (choiceIndex: number) => boolean;
  /** Choices that sent something but no finish reason yet. */
  unfinishedChoices: () => number[];
  /** Whether the choice's first delta (the one with `role`) was sent. */
  hasRole: (choiceIndex: number) => boolean;
  /** A chunk for the choice was sent as the vendor wrote it (it carried the role when it was the first). */
  noteRelayed: (choiceIndex: number, isFinishing: boolean) => void;
};

type BuilderContext = {
  identity: { id: string; created: number; model: string };
  choices: Map<number, ChoiceState>;
};

export function createChunkBuilder(identity: { id: string; created: number; model: string }): ChunkBuilder {
  const context: BuilderContext = { identity, choices: new Map() };
  return {
    content: (choiceIndex, text, logprobs) =>
      text === '' && !logprobs ? [] : emitDelta(context, choiceIndex, { content: text }, logprobs),
    refusal: (choiceIndex, text) => (text === '' ? [] : emitDelta(context, choiceIndex, { refusal: text })),
    reasoning: (choiceIndex, text) => (text === '' ? [] : emitDelta(context, choiceIndex, { reasoning_content: text })),
    startToolCall: (choiceIndex, call) => startToolCall(context, choiceIndex, call),
    toolArguments: (choiceIndex, toolIndex, fragment) =>
      fragment === ''
        ? []
        : emitDelta(context, choiceIndex, { tool_calls: [{ index: toolIndex, function: { arguments: fragment } }] }),
    finish: (choiceIndex, reason) => finishChoice(context, choiceIndex, reason),
    usage: (usage) => [createChunk(context, [], usage)],
    hasToolCalls: (choiceIndex) => (context.choices.get(choiceIndex)?.toolCallCount ?? 0) > 0,
    isFinished: (choiceIndex) => context.choices.get(choiceIndex)?.isFinished ?? false,
    unfinishedChoices: () => [...context.choices].filter(([, state]) => !state.isFinished).map(([index]) => index),
    hasRole: (choiceIndex) => context.choices.get(choiceIndex)?.hasRole ?? false,
    noteRelayed: (choiceIndex, isFinishing) => {
      const state = stateOf(context, choiceIndex);
      state.hasRole = true;
      state.isFinished ||= isFinishing;
    },
  };
}

function stateOf(context: BuilderContext, choiceIndex: number): ChoiceState {
  let state = context.choices.get(choiceIndex);
  if (state === undefined) {
    state = { hasRole: false, isFinished: false, toolCallCount: 0 };
    context.choices.set(choiceIndex, state);
  }
  return state;
}

function createChunk(context: BuilderContext, choices: ChatChunk['choices'], usage?: Usage): ChatChunk {
  return {
    id: context.identity.id,
    object: 'chat.completion.chunk',
    created: context.identity.created,
    model: context.identity.model,
    choices,
    ...(usage === undefined ? {} : { usage }),
  };
}

function emitDelta(
  context: BuilderContext,
  choiceIndex: number,
  delta: ChunkDelta,
  logprobs?: ChoiceLogprobs | null,
): ChatChunk[] {
  const state = stateOf(context, choiceIndex);
  if (state.isFinished) return [];
  const withRole: ChunkDelta = state.hasRole ? delta : { role: 'assistant', ...delta };
  state.hasRole = true;
  return [
    createChunk(context, [{ index: choiceIndex, delta: withRole, finish_reason: null, logprobs: logprobs ?? null }]),
  ];
}

function startToolCall(
  context: BuilderContext,
  choiceIndex: number,
  call: { id: string; name: string; arguments: string },
): { chunks: ChatChunk[]; toolIndex: number } {
  const state = stateOf(context, choiceIndex);
  const toolIndex = state.toolCallCount;
  state.toolCallCount += 1;
  const opening: ChunkDelta = {
    tool_calls: [{ index: toolIndex, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
  };
  const chunks = emitDelta(context, choiceIndex, opening);
  if (call.arguments !== '') {
    const argumentsDelta: ChunkDelta = { tool_calls: [{ index: toolIndex, function: { arguments: call.arguments } }] };
    chunks.push(...emitDelta(context, choiceIndex, argumentsDelta));
  }
  return { chunks, toolIndex };
}

function finishChoice(context: BuilderContext, choiceIndex: number, reason: FinishReason): ChatChunk[] {
  const state = stateOf(context, choiceIndex);
  if (state.isFinished) return [];
  const opening = state.hasRole ? [] : emitDelta(context, choiceIndex, { content: '' });
  state.isFinished = true;
  return [...opening, createChunk(context, [{ index: choiceIndex, delta: {}, finish_reason: reason, logprobs: null }])];
}
