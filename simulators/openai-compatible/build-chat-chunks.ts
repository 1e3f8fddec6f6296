import { dataEvent, doneEvent, commentEvent, type SseEvent } from '../shared/send-response.ts';
import { buildChatAnnotations } from './build-chat-annotations.ts';
import type { ChoiceAnswer, ChunkPosition, DialectQuirks, StreamContext } from './dialect-quirks.ts';
import { mapChatFinishReason } from './map-chat-finish-reason.ts';

type Delta = Record<string, unknown>;

/**
 * The `chat.completion.chunk` stream (docs/reference/openai.md §Streaming): role only in the first delta; one delta per token;
 * each tool call opens with its id, type and name, then argument fragments; a `delta: {}` chunk with the finish
 * reason; usage where the vendor puts it; `[DONE]`. With `n` choices, each chunk carries one choice's delta (its
 * `index`), the choices taking turns, and every choice ends with its own finish chunk.
 */
export function buildChatChunks(
  context: StreamContext,
  quirks: DialectQuirks,
  options: { isUsageRequested: boolean },
): SseEvent[] {
  const deltasByChoice = context.choices.map((answer) => buildDeltas(answer, quirks));
  const isUsageSent = options.isUsageRequested || quirks.isStreamUsageAlwaysSent;
  const usage = quirks.formatUsage(context.plan);
  const chunk = (position: ChunkPosition, choices: unknown[], extra: Record<string, unknown> = {}): SseEvent => {
    const body: Record<string, unknown> = {
      id: context.completionId,
      object: 'chat.completion.chunk',
      created: context.createdUnixSeconds,
      model: context.model,
      choices,
      ...extra,
    };
    quirks.decorateChunk(body, position, context);
    return dataEvent(body);
  };
  const choice = (index: number, delta: Delta, finishReason: string | null) => ({
    index,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });
  // OpenAI marks every chunk `usage: null` when a final usage chunk will follow (§1.4).
  const nullUsage =
    options.isUsageRequested && quirks.streamUsagePlacement === 'final-empty-chunk' ? { usage: null } : {};
  const events: SseEvent[] = quirks.keepAliveComments.map(commentEvent);
  const opening = quirks.openingChunk?.(context);
  if (opening) events.push(dataEvent(opening));
  const longest = Math.max(...deltasByChoice.map((deltas) => deltas.length));
  let position: ChunkPosition = 'first';
  for (let step = 0; step < longest; step += 1) {
    deltasByChoice.forEach((deltas, index) => {
      const delta = deltas[step];
      if (delta === undefined) return;
      events.push(chunk(position, [choice(index, delta, null)], nullUsage));
      position = 'middle';
    });
  }
  const isUsageOnFinish = isUsageSent && quirks.streamUsagePlacement !== 'final-empty-chunk';
  context.choices.forEach((answer, index) => {
    const finishReason = mapChatFinishReason(answer.plan.finishReason, quirks);
    const isLast = index === context.choices.length - 1;
    const extra = isLast && isUsageOnFinish ? { usage } : nullUsage;
    events.push(chunk(isLast ? 'finish' : 'middle', [choice(index, {}, finishReason)], extra));
  });
  if (isUsageSent && quirks.streamUsagePlacement === 'final-empty-chunk') events.push(chunk('usage', [], { usage }));
  if (isUsageSent && quirks.streamUsagePlacement === 'finish-chunk-then-empty-chunk') events.push(chunk('usage', []));
  events.push(doneEvent);
  return events;
}

function buildDeltas(answer: ChoiceAnswer, quirks: DialectQuirks): Delta[] {
  const { plan } = answer;
  const deltas: Delta[] = [];
  const reasoningField = quirks.reasoningField;
  if (reasoningField) for (const token of plan.reasoningTokens) deltas.push({ [reasoningField]: token });
  const contentField = plan.contentKind === 'refusal' && quirks.hasRefusalField ? 'refusal' : 'content';
  for (const token of plan.contentTokens) deltas.push({ [contentField]: token });
  if (plan.search) deltas.push({ annotations: buildChatAnnotations(plan) });
  plan.toolCalls.forEach((call, index) => {
    const id = answer.toolCallIds[index];
    deltas.push({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const fragment of call.argumentFragments) {
      deltas.push({ tool_calls: [{ index, function: { arguments: fragment } }] });
    }
  });
  const first = deltas[0];
  const roleDelta: Delta = { role: 'assistant', content: '' };
  if (quirks.hasRefusalField) roleDelta['refusal'] = null;
  if (first && ('tool_calls' in first || (reasoningField !== undefined && reasoningField in first))) {
    deltas[0] = { role: 'assistant', content: null, ...first };
    return deltas;
  }
  return [roleDelta, ...deltas];
}
