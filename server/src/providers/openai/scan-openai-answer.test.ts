import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseBodyText } from '../shared/parse-error-body.ts';
import { testIdentity } from '../test-support/replay-fixture.ts';
import { openAiAdapter } from './openai-adapter.ts';
import { scanOpenAiAnswer } from './scan-openai-answer.ts';

const billedUsage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.000123 };
const fixtureText = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

function answer(message: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    ...extra,
  });
}

function relay(text: string) {
  return openAiAdapter.relayResponse?.({ text, ...testIdentity });
}

/** What the converter makes of the same text: the relay must bill and answer the same. */
function convert(text: string) {
  return openAiAdapter.parseResponse({ body: parseBodyText(text), ...testIdentity });
}

describe('scanOpenAiAnswer: an answer read without parsing it whole', () => {
  it('measures text as the converter does: unicode, escapes, emoji, tool calls', () => {
    const contents = ['plain', 'héllo wörld 😀', 'line\nbreak "quoted" \\ back\tslash', '\u00e9'.repeat(100), ''];
    for (const content of contents) {
      const text = answer({ content }).replaceAll('é', '\\u00e9');
      assert.equal(scanOpenAiAnswer(text)?.textBytes, Buffer.byteLength(content), content);
    }
    const toolCall = {
      id: 'call_1',
      type: 'function',
      function: { name: 'get_wéather', arguments: '{"city":"Zürich"}' },
    };
    const text = answer({ content: null, tool_calls: [toolCall] }).replace('"stop"', '"tool_calls"');
    assert.equal(scanOpenAiAnswer(text)?.textBytes, Buffer.byteLength('get_wéather{"city":"Zürich"}'));
  });

  it('reads only the top-level usage: a "usage" inside the answer text or a message is left alone', () => {
    const decoy = '"usage": {"prompt_tokens": 999999}';
    const text = answer({ content: `${decoy} and {"usage":null}`, extra: { usage: { prompt_tokens: 'x' } } });
    const relayed = relay(text);
    assert.ok(relayed);
    assert.deepEqual(relayed.usage, convert(text).usage);
    assert.equal(relayed.usage?.prompt_tokens, 5);
    const rendered = relayed.render(billedUsage);
    assert.ok(rendered.includes(decoy.replaceAll('"', '\\"')), 'the answer text is copied as sent');
    assert.deepEqual((parseBodyText(rendered) as { usage: unknown }).usage, billedUsage);
  });

  it('relays an answer without usage or with usage null, billed by its text size', () => {
    for (const usage of [undefined, null]) {
      const text = answer({ content: 'héllo' }, { usage });
      const relayed = relay(text);
      assert.ok(relayed);
      assert.equal(relayed.usage, undefined);
      assert.equal(relayed.textBytes, 6);
      assert.deepEqual((parseBodyText(relayed.render(billedUsage)) as { usage: unknown }).usage, billedUsage);
    }
  });

  it("relays a huge answer: the bytes are the vendor's but for the replaced fields", () => {
    const content = 'Ein langer Absatz über Zürich, mit "Zitaten" und\nZeilen. 😀 '.repeat(20_000);
    const text = answer({ content });
    const relayed = relay(text);
    assert.ok(relayed);
    assert.equal(relayed.textBytes, Buffer.byteLength(content));
    const rendered = relayed.render(billedUsage);
    const expected = { ...(JSON.parse(text) as object), ...identityFields(), usage: billedUsage };
    assert.deepEqual(JSON.parse(rendered), expected);
    assert.ok(rendered.includes(JSON.stringify(content)));
  });

  it('leaves malformed or unusual text to the converter, which refuses or normalises it as before', () => {
    const good = answer({ content: 'x' });
    assert.ok(relay(good));
    const cases = {
      'cut short': good.slice(0, -1),
      'a trailing comma': good.replace('}]', '},]'),
      'text after the object': `${good} {}`,
      'a raw control character in the text': good.replace('"x"', '"a\u0001b"'),
      'a raw control character in a long text': good.replace('"x"', `"${'a'.repeat(100)}\u0001"`),
      'a bad escape': good.replace('"x"', '"\\q"'),
      'half a surrogate pair in the text': good.replace('"x"', '"\\ud83d"'),
      'a key written with escapes': good.replace('"role"', '"r\\u006fle"'),
      'a read key written twice': good.replace('"role":"assistant"', '"role":"user","role":"assistant"'),
      'the model written twice': good.replace('"model"', '"model":"a","model"'),
      'an error field': answer({ content: 'x' }, { error: null }),
      'usage that is not numbers': answer({ content: 'x' }, { usage: { prompt_tokens: 'ten' } }),
      'an index written as a string': good.replace('"index":0', '"index":"0"'),
    };
    for (const [label, text] of Object.entries(cases)) assert.equal(relay(text), undefined, label);
    const converted = convert(cases['half a surrogate pair in the text']);
    assert.equal(converted.choices[0]?.message.content, '\ud83d', 'the converter still answers it');
  });

  it('accepts numbers written as JSON allows for the index, as JSON.parse reads them', () => {
    const text = answer({ content: 'x' });
    for (const index of ['0.0', '-0', '0e5', '0E+2'])
      assert.ok(relay(text.replace('"index":0', `"index":${index}`)), index);
    assert.equal(relay(text.replace('"index":0', '"index":1e0')), undefined);
  });

  it('gives the same usage, text size and answer as the converter on the recorded answers', () => {
    for (const name of ['text.json', 'tool-call.json']) {
      const text = fixtureText(name);
      const relayed = relay(text);
      assert.ok(relayed, name);
      const converted = convert(text);
      assert.deepEqual(relayed.usage, converted.usage);
      const rendered = JSON.parse(relayed.render(billedUsage)) as { choices: unknown };
      assert.deepEqual(
        (rendered.choices as { message: { content: unknown } }[]).map((choice) => choice.message.content),
        converted.choices.map((choice) => choice.message.content),
      );
    }
  });
});

function identityFields() {
  return { id: testIdentity.id, created: testIdentity.createdUnixSeconds, model: testIdentity.requestedModel };
}
