import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../errors/gateway-error.ts';
import { chatRequestSchema } from './chat-request.ts';
import { isPlainChatRequest, parseChatRequest } from './parse-chat-request.ts';
import { parseWireRequest } from './parse-request.ts';

/** A small seeded generator (mulberry32), so every run checks the same requests. */
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

let deep: unknown = 'bottom';
for (let level = 0; level < 140; level += 1) deep = [deep];

const absent = Symbol('absent');

/** Valid and invalid values for each field, as clients send them (and get them wrong); the first is valid. */
const fieldValues: Record<string, unknown[]> = {
  model: ['gpt-4o-mini', '', 5, null, absent],
  stream: [true, false, null, 'yes'],
  stream_options: [null, { include_usage: true }, { include_usage: 'x' }, { other: 1 }, { other: {} }, []],
  max_tokens: [1, 0, 100, 1.5, null, -1, 2 ** 60, '10'],
  max_completion_tokens: [64, 0, null, 2.5],
  temperature: [0, 2, 2.1, -0.1, null, '1', 1.5],
  top_p: [0, 1, 1.2, 0.5, null],
  n: [1, 128, 129, 0, 2.5, null],
  stop: ['x', [], ['a'], ['a', 'b', 'c', 'd', 'e'], [1], null, ['a', 'b', 'c', 'd']],
  seed: [0, -5, 1.5, null, 2 ** 60],
  presence_penalty: [-2, 2, 3, null],
  frequency_penalty: [0.5, -2.5],
  parallel_tool_calls: [true, null, 'x'],
  reasoning_effort: ['low', 'max', 'ultra', null],
  user: ['u', 1],
  metadata: [{ a: 'b' }, { a: 1 }],
  tools: [[], [{ type: 'function', function: { name: 'f' } }]],
  tool_choice: ['auto', { type: 'function', function: { name: 'f', extra: 1 } }],
  response_format: [{ type: 'text' }, { type: 'json_schema' }],
  web_search_options: [null, {}, 'x'],
  vendor_extra: [1, 'x', { a: 1 }, deep],
};

const contents: unknown[] = [
  'hi',
  '',
  null,
  [],
  [{ type: 'text', text: 'a' }],
  [{ type: 'text', text: 3 }],
  [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
  [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }],
  [{ type: 'text', text: 'a', extra: 1 }],
  [{ type: 'text' }],
  7,
  absent,
];
const roles: unknown[] = ['system', 'developer', 'user', 'user', 'assistant', 'tool', 'bogus', 5, absent];

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

/** A tidy message is one a careful client sends: a known role and text content, now and then a name. */
function generateMessage(random: () => number, isTidy: boolean): unknown {
  if (isTidy) {
    const message = {
      role: pick(random, ['system', 'user', 'assistant']),
      content: pick(random, contents.slice(0, 5)),
    };
    return random() < 0.2 ? { ...message, name: 'n' } : message;
  }
  if (random() < 0.03) return ['not', 'an', 'object'];
  const message: Record<string, unknown> = {};
  const optional: [string, unknown[]][] = [
    ['name', ['n', 3]],
    ['refusal', [null, 'r', 1]],
    ['reasoning_content', [null, 'thought', 2]],
    ['tool_calls', [[{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }]]],
    ['tool_call_id', ['call_1', '']],
    ['x_extra', [1, { a: 1 }, deep]],
  ];
  const fields: [string, unknown[]][] = [['role', roles], ['content', contents], ...optional];
  for (const [name, values] of fields) {
    const isOptional = name !== 'role' && name !== 'content';
    if (isOptional && random() > 0.12) continue;
    const value = pick(random, values);
    if (value !== absent) message[name] = value;
  }
  return message;
}

/** Tidy messages and valid field values, or either mixed with everything, so each check meets its edge values. */
function generateRequest(random: () => number): unknown {
  if (random() < 0.01) return pick(random, [null, [], 'text', 3]);
  const areMessagesTidy = random() < 0.6;
  const areFieldsTidy = random() < 0.3;
  const request: Record<string, unknown> = {};
  const model = pick(random, random() < 0.8 ? ['gpt-4o-mini'] : (fieldValues['model'] ?? []));
  if (model !== absent) request['model'] = model;
  const messageCount = pick(random, [-1, 0, 1, 1, 2, 3]);
  if (messageCount >= 0) {
    request['messages'] = Array.from({ length: messageCount }, () => generateMessage(random, areMessagesTidy));
  } else if (random() < 0.5) request['messages'] = 'hello';
  for (const [name, values] of Object.entries(fieldValues)) {
    if (name === 'model' || random() > 0.12) continue;
    request[name] = areFieldsTidy ? values[0] : pick(random, values);
  }
  return request;
}

type Outcome =
  | { kind: 'parsed'; value: unknown }
  | { kind: 'refused'; status: number; message: string; param: unknown; code: unknown };

function outcomeOf(parse: () => unknown): Outcome {
  try {
    return { kind: 'parsed', value: parse() };
  } catch (error) {
    assert.ok(error instanceof GatewayError, `unexpected error: ${String(error)}`);
    return { kind: 'refused', status: error.status, message: error.message, param: error.param, code: error.code };
  }
}

describe('parseChatRequest', () => {
  it('gives every request, plain or not, valid or not, the same result or the same error as the schema', () => {
    const random = createRandom(20);
    let plainCount = 0;
    let otherValidCount = 0;
    let refusedCount = 0;
    for (let index = 0; index < 6000; index += 1) {
      const body = generateRequest(random);
      const expected = outcomeOf(() => parseWireRequest(chatRequestSchema, body));
      const actual = outcomeOf(() => parseChatRequest(body));
      assert.deepEqual(actual, expected, JSON.stringify(body).slice(0, 400));
      if (isPlainChatRequest(body)) {
        plainCount += 1;
        assert.equal(expected.kind, 'parsed', 'a request taken in place must be one the schema accepts');
        assert.equal(actual.kind === 'parsed' && actual.value, body, 'a plain request is used as it is');
      } else if (expected.kind === 'parsed') otherValidCount += 1;
      else refusedCount += 1;
    }
    // Both paths and the refusals were exercised, not just one of them.
    assert.ok(plainCount > 300, `plain requests: ${plainCount}`);
    assert.ok(otherValidCount > 300, `valid requests through the schema: ${otherValidCount}`);
    assert.ok(refusedCount > 1000, `refused requests: ${refusedCount}`);
  });

  it('takes an ordinary chat request in place', () => {
    const body = {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'assistant', content: 'Hi.', refusal: null },
        { role: 'user', content: 'Bye', name: 'ann' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
      temperature: 0.7,
      stop: ['\n\n'],
      vendor_flag: true,
    };
    assert.equal(isPlainChatRequest(body), true);
    assert.equal(parseChatRequest(body), body);
  });

  it('leaves tool calls, tools, images and nested unknown fields to the schema', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    const call = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const others: unknown[] = [
      { ...base, tools: [{ type: 'function', function: { name: 'f' } }] },
      {
        ...base,
        messages: [
          { role: 'assistant', tool_calls: [call] },
          { role: 'tool', tool_call_id: 'call_1', content: 'r' },
        ],
      },
      {
        ...base,
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://a/b.png' } }] }],
      },
      { ...base, vendor_options: { a: 1 } },
      { ...base, messages: [{ role: 'user', content: 'x', cache: { a: 1 } }] },
    ];
    for (const body of others) {
      assert.equal(isPlainChatRequest(body), false, JSON.stringify(body));
      assert.deepEqual(parseChatRequest(body), parseWireRequest(chatRequestSchema, body));
    }
  });

  it('keeps the schema refusal of a field nested too deep', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'x' }], vendor_extra: deep };
    assert.throws(() => parseChatRequest(body), { param: 'vendor_extra', message: /nested deeper than 128 levels/ });
  });
});
