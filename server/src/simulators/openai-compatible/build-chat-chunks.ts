import { dataEvent, doneEvent, commentEvent, type SseEvent } from '../shared/send-response.ts';
import { buildChatAnnotations } from './build-chat-annotations.ts';
import type { ChunkPosition, DialectQuirks, StreamContext } from './dialect-quirks.ts';
import { mapChatFinishReason } from './map-chat-finish-reason.ts';

type Delta = Record<string, unknown>;

/**
 * The `chat.completion.chunk` stream (wire-formats §1.4, §9.1): role only in the first delta; one delta per token;
 * each tool call opens with its id, type and name, then argument fragments; a `delta: {}` chunk with the finish
 * reason; usage where the vendor puts it; `[DONE]`.
 */
export function buildChatChunks(
  context: StreamContext,
  quirks: DialectQuirks,
  options: { isUsageRequested: boolean },
): SseEvent[] {
  const deltas = buildDeltas(context, quirks);
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
  const choice = (delta: Delta, finishReason: string | null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });
  // OpenAI marks every chunk `usage: null` when a final usage chunk will follow (§1.4).
  const nullUsage =
    options.isUsageRequested && quirks.streamUsagePlacement === 'final-empty-chunk' ? { usage: null } : {};
  const events: SseEvent[] = quirks.keepAliveComments.map(commentEvent);
  deltas.forEach((delta, index) =>
    events.push(chunk(index === 0 ? 'first' : 'middle', [choice(delta, null)], nullUsage)),
  );
  const finishReason = mapChatFinishReason(context.plan.finishReason, quirks);
  const isUsageOnFinish = isUsageSent && quirks.streamUsagePlacement !== 'final-empty-chunk';
  events.push(chunk('finish', [choice({}, finishReason)], isUsageOnFinish ? { usage } : nullUsage));
  if (isUsageSent && quirks.streamUsagePlacement === 'final-empty-chunk') events.push(chunk('usage', [], { usage }));
  if (isUsageSent && quirks.streamUsagePlacement === 'finish-chunk-then-empty-chunk') events.push(chunk('usage', []));
  events.push(doneEvent);
  return events;
}

function buildDeltas(context: StreamContext, quirks: DialectQuirks): Delta[] {
  const { plan } = context;
  const deltas: Delta[] = [];
  const reasoningField = quirks.reasoningField;
  if (reasoningField) for (const token of plan.reasoningTokens) deltas.push({ [reasoningField]: token });
  const contentField = plan.contentKind === 'refusal' && quirks.hasRefusalField ? 'refusal' : 'content';
  for (const token of plan.contentTokens) deltas.push({ [contentField]: token });
  if (plan.search) deltas.push({ annotations: buildChatAnnotations(plan) });
  plan.toolCalls.forEach((call, index) => {
    const id = context.toolCallIds[index];
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
