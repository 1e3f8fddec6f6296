import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseBodyText } from '../shared/parse-error-body.ts';
import { testIdentity } from '../test-support/replay-fixture.ts';
import { openAiAdapter } from './openai-adapter.ts';

const fixtureText = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const billedUsage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.000123 };

function relay(text: string) {
  return openAiAdapter.relayResponse?.({ text, ...testIdentity });
}

/** The text with one top-level field's value replaced, as a reviewer would do it by hand. */
function replaceValue(text: string, key: string, value: string): string {
  const body = parseBodyText(text) as Record<string, unknown>;
  const written = JSON.stringify(body[key], null, 2).replaceAll('\n', '\n  ');
  assert.ok(text.includes(`"${key}": ${written}`), `the fixture writes ${key} as expected`);
  return text.replace(`"${key}": ${written}`, `"${key}": ${value}`);
}

describe('OpenAI answers forwarded as sent', () => {
  for (const name of ['text.json', 'tool-call.json']) {
    it(`${name}: the bytes are the vendor's but for id, created, model and the billed usage`, () => {
      const text = fixtureText(name);
      const relayed = relay(text);
      assert.ok(relayed, 'relayed, not converted');
      let expected = text;
      expected = replaceValue(expected, 'id', JSON.stringify(testIdentity.id));
      expected = replaceValue(expected, 'created', String(testIdentity.createdUnixSeconds));
      expected = replaceValue(expected, 'model', JSON.stringify(testIdentity.requestedModel));
      expected = replaceValue(expected, 'usage', JSON.stringify(billedUsage));
      assert.equal(relayed.render(billedUsage), expected);
    });

    it(`${name}: the usage billed is the usage the converter reads`, () => {
      const text = fixtureText(name);
      const converted = openAiAdapter.parseResponse({ body: parseBodyText(text), ...testIdentity });
      assert.deepEqual(relay(text)?.usage, converted.usage);
    });
  }

  it('measures the answer text for the estimate when no usage came', () => {
    const body = {
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'héllo' }, finish_reason: 'stop' }],
    };
    const relayed = relay(JSON.stringify(body));
    assert.equal(relayed?.usage, undefined);
    assert.equal(relayed?.textBytes, 6);
    assert.deepEqual(JSON.parse(relayed?.render(billedUsage) ?? ''), {
      ...body,
      id: testIdentity.id,
      created: testIdentity.createdUnixSeconds,
      model: testIdentity.requestedModel,
      usage: billedUsage,
    });
  });

  it('leaves answers that need converting to the converter', () => {
    const answer = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop', ...choice }],
        ...extra,
      });
    const toolCall = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const cases = {
      'an unknown finish reason': answer({ finish_reason: 'eos' }),
      'no finish reason': answer({ finish_reason: null }),
      'a tool call that ends with stop': answer({
        message: { role: 'assistant', content: null, tool_calls: [toolCall] },
      }),
      'a tool call without an id': answer({
        message: { role: 'assistant', content: null, tool_calls: [{ ...toolCall, id: undefined }] },
        finish_reason: 'tool_calls',
      }),
      'null content without tool calls': answer({ message: { role: 'assistant', content: null } }),
      'a missing index': answer({ index: undefined }),
      'log probabilities': answer({ logprobs: { content: [] } }),
      'citations (search-annotations.json)': fixtureText('search-annotations.json'),
      'usage that is not numbers': answer({}, { usage: { prompt_tokens: 'ten' } }),
      'an error body with a 200': JSON.stringify({ error: { message: 'overloaded' } }),
      'a duplicated key': answer({}).replace('{', '{"model":"a","model":"b",'),
      'no choices': JSON.stringify({ object: 'chat.completion', choices: [] }),
    };
    assert.ok(relay(answer({})), 'the same answer in converted form is relayed');
    for (const [label, text] of Object.entries(cases)) assert.equal(relay(text), undefined, label);
  });
});
