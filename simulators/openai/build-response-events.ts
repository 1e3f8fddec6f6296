import { hashText } from '../shared/random.ts';
import { dataEvent, type SseEvent } from '../shared/send-response.ts';
import { buildResponseObject, type ResponseContext } from './build-response-object.ts';
import { renderFinalItem, renderFinalPart, type ResponseItem } from './plan-response-items.ts';

type Payload = Record<string, unknown>;

/**
 * The Responses stream (docs/reference/openai.md §Responses): `event:` + `data:` with `type` and a `sequence_number` counting from
 * 0; `response.created` first; every item `added` before its deltas, with dense output indices; a terminal
 * `response.completed` or `response.incomplete`; no `[DONE]`.
 */
export function buildResponseEvents(context: ResponseContext, items: readonly ResponseItem[]): SseEvent[] {
  const payloads: Payload[] = [];
  const isObfuscated = context.request.stream_options?.include_obfuscation !== false;
  const emit = (type: string, fields: Payload) => payloads.push({ type, ...fields });
  emit('response.created', { response: buildResponseObject(context, { status: 'in_progress', output: [] }) });
  emit('response.in_progress', { response: buildResponseObject(context, { status: 'in_progress', output: [] }) });
  items.forEach((item, outputIndex) => {
    emit('response.output_item.added', { output_index: outputIndex, item: renderAddedItem(item) });
    for (const [type, fields] of itemBodyEvents(item, outputIndex, isObfuscated)) emit(type, fields);
    emit('response.output_item.done', { output_index: outputIndex, item: renderFinalItem(item) });
  });
  const status = context.plan.finishReason === 'length' ? 'incomplete' : 'completed';
  emit(`response.${status}`, {
    response: buildResponseObject(context, { status, output: items.map(renderFinalItem) }),
  });
  return payloads.map((payload, sequenceNumber) =>
    dataEvent({ ...payload, sequence_number: sequenceNumber }, String(payload['type'])),
  );
}

function renderAddedItem(item: ResponseItem): Payload {
  switch (item.type) {
    case 'reasoning':
      return { id: item.id, type: 'reasoning', summary: [] };
    case 'web_search_call':
      return { id: item.id, type: 'web_search_call', status: 'in_progress' };
    case 'message':
      return { id: item.id, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    case 'function_call':
      return {
        id: item.id,
        type: 'function_call',
        status: 'in_progress',
        arguments: '',
        call_id: item.callId,
        name: item.name,
      };
    default:
      return assertNever(item);
  }
}

function itemBodyEvents(item: ResponseItem, outputIndex: number, isObfuscated: boolean): [string, Payload][] {
  const at = { item_id: item.id, output_index: outputIndex };
  switch (item.type) {
    case 'reasoning': {
      if (!item.hasSummary) return [];
      const text = item.tokens.join('');
      const summary = { ...at, summary_index: 0 };
      return [
        ['response.reasoning_summary_part.added', { ...summary, part: { type: 'summary_text', text: '' } }],
        ...item.tokens.map((token): [string, Payload] => [
          'response.reasoning_summary_text.delta',
          { ...summary, delta: token },
        ]),
        ['response.reasoning_summary_text.done', { ...summary, text }],
        ['response.reasoning_summary_part.done', { ...summary, part: { type: 'summary_text', text } }],
      ];
    }
    case 'web_search_call':
      return [
        ['response.web_search_call.in_progress', { output_index: outputIndex, item_id: item.id }],
        ['response.web_search_call.searching', { output_index: outputIndex, item_id: item.id }],
        ['response.web_search_call.completed', { output_index: outputIndex, item_id: item.id }],
      ];
    case 'message':
      return messageEvents(item, { ...at, content_index: 0 }, isObfuscated);
    case 'function_call':
      return [
        ...item.fragments.map((fragment): [string, Payload] => [
          'response.function_call_arguments.delta',
          { ...at, delta: fragment },
        ]),
        ['response.function_call_arguments.done', { ...at, name: item.name, arguments: item.argumentsJson }],
      ];
    default:
      return assertNever(item);
  }
}

function messageEvents(
  item: Extract<ResponseItem, { type: 'message' }>,
  at: Payload,
  isObfuscated: boolean,
): [string, Payload][] {
  const text = item.tokens.join('');
  if (item.contentKind === 'refusal') {
    return [
      ['response.content_part.added', { ...at, part: { type: 'refusal', refusal: '' } }],
      ...item.tokens.map((token): [string, Payload] => ['response.refusal.delta', { ...at, delta: token }]),
      ['response.refusal.done', { ...at, refusal: text }],
      ['response.content_part.done', { ...at, part: renderFinalPart(item) }],
    ];
  }
  const events: [string, Payload][] = [
    ['response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } }],
  ];
  item.tokens.forEach((token, index) => {
    const delta: Payload = { ...at, delta: token, logprobs: [] };
    // Random-length padding against length side channels, on by default (docs/reference/openai.md §Responses).
    if (isObfuscated) delta['obfuscation'] = hashText(`${item.id}${index}`).slice(0, 2 + (index % 11));
    events.push(['response.output_text.delta', delta]);
    item.annotations.forEach((placed, annotationIndex) => {
      if (placed.afterTokenCount !== index + 1) return;
      events.push([
        'response.output_text.annotation.added',
        { ...at, annotation_index: annotationIndex, annotation: placed.annotation },
      ]);
    });
  });
  events.push(
    ['response.output_text.done', { ...at, text, logprobs: [] }],
    ['response.content_part.done', { ...at, part: renderFinalPart(item) }],
  );
  return events;
}

function assertNever(value: never): never {
  throw new Error(`unexpected item ${JSON.stringify(value)}`);
}
