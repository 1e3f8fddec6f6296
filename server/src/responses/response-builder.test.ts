import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResponseBuilder } from './response-builder.ts';
import type { SequencedEvent } from './response-stream-event.ts';

const identity = { id: 'resp_1', createdAtUnixSeconds: 1, model: 'm', settings: {} as never };

function build(holdsTextBeforeSearch: boolean) {
  const events: SequencedEvent[] = [];
  let count = 0;
  const builder = new ResponseBuilder({
    identity,
    newId: (prefix) => `${prefix}${(count += 1)}`,
    emit: (event) => events.push(event),
    holdsTextBeforeSearch,
  });
  const finish = () =>
    builder.complete({ incompleteReason: undefined, usage: undefined as never, completedAtUnixSeconds: 2 });
  return { builder, events, finish };
}

const citation = { type: 'url_citation' as const, url: 'https://a.example/', title: 'A', start_index: 0, end_index: 4 };

describe('ResponseBuilder holding text before a search', () => {
  it('drops the words before a search and sends the later answer with its citation, in order', () => {
    const { builder, events, finish } = build(true);
    builder.textDelta('Let me look.');
    builder.addVendorSearch({ query: 'tides', sourceUrls: undefined, isCompleted: true });
    builder.textDelta('{"a":');
    builder.addVendorCitation(citation);
    builder.textDelta('1}');
    const response = finish();
    assert.deepEqual(
      response.output.map((item) => item.type),
      ['web_search_call', 'message'],
    );
    const message = response.output[1];
    assert.ok(message?.type === 'message' && message.content[0]?.type === 'output_text');
    assert.equal(message.content[0].text, '{"a":1}');
    assert.deepEqual(message.content[0].annotations, [citation]);
    const types = events.map((event) => event.type);
    assert.ok(types.indexOf('response.output_text.delta') > types.indexOf('response.web_search_call.completed'));
  });

  it('lets the text through when a function call follows, and streams as it comes without the hold', () => {
    const held = build(true);
    held.builder.textDelta('Calling.');
    assert.ok(!held.events.some((event) => event.type === 'response.output_text.delta'), 'held for now');
    held.builder.functionCallDelta(0, { callId: 'call_1', name: 'f', arguments: '{}' });
    assert.deepEqual(
      held.finish().output.map((item) => item.type),
      ['message', 'function_call'],
    );
    const plain = build(false);
    plain.builder.textDelta('Let me look.');
    assert.ok(
      plain.events.some((event) => event.type === 'response.output_text.delta'),
      'sent at once',
    );
    plain.builder.addVendorSearch({ query: 'tides', sourceUrls: undefined, isCompleted: true });
    assert.deepEqual(
      plain.finish().output.map((item) => item.type),
      ['message', 'web_search_call'],
    );
  });
});
