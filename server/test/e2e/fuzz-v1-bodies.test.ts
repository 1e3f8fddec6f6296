import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** Bounded in time and count, and seeded: a failure names the seed and case, so it replays exactly. */
const seed = 19;
const maxCases = 400;
const maxDurationMs = 90_000;

/** mulberry32: a small seeded generator, so every run sends the same bodies. */
function createRandom(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const validBodies = {
  '/v1/chat/completions': { model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] },
  '/v1/responses': { model: 'gpt-4o-mini', max_output_tokens: 16, input: 'Hi' },
  '/v1/messages': { model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] },
  '/v1/images/generations': { model: 'gpt-image-1', prompt: 'A red circle', size: '1024x1024' },
} as const;
type V1Path = keyof typeof validBodies;

/** Values that have broken parsers before: wrong types, extremes, odd strings, deep nesting. */
function oddValue(random: () => number): unknown {
  const choices: Array<() => unknown> = [
    () => null,
    () => true,
    () => -1,
    () => 0,
    () => 2 ** 53 + 2,
    () => -(2 ** 63),
    () => 1e308,
    () => 0.5,
    () => '',
    () => 'x'.repeat(70_000),
    () => '\u0000\ud800\uffff',
    () => '😀'.repeat(100),
    () => [],
    () => [null],
    () => ({}),
    () => ({ role: 'system' }),
    () => JSON.parse('['.repeat(200) + ']'.repeat(200)) as unknown,
    () => ({ type: 'image_url', image_url: { url: 'data:image/png;base64,@@@' } }),
    () => [{ role: 'tool', content: 'x' }],
    () => [{ role: 'user', content: [{ type: 'nonsense' }] }],
  ];
  return choices[Math.floor(random() * choices.length)]!();
}

function mutate(body: Record<string, unknown>, random: () => number): Record<string, unknown> {
  const mutated: Record<string, unknown> = structuredClone(body);
  const keys = [
    ...Object.keys(mutated),
    'stream',
    'n',
    'temperature',
    'tools',
    'tool_choice',
    'response_format',
    'extra',
  ];
  const changes = 1 + Math.floor(random() * 3);
  for (let index = 0; index < changes; index += 1) {
    const key = keys[Math.floor(random() * keys.length)]!;
    if (random() < 0.25) delete mutated[key];
    else mutated[key] = oddValue(random);
  }
  return mutated;
}

/** Raw bodies that are not JSON at all, or not the JSON object every endpoint takes. */
const rawBodies = ['', '{', 'null', '[]', '"text"', '{"model":', '{"model":"gpt-4o-mini",}', '\u00ff\u00fe', '1e999'];

describe('issue 19: malformed /v1 bodies never get a 5xx, and every refusal is in the API shape', () => {
  let gateway: TestGateway;
  let key: string;
  before(async () => {
    gateway = await startTestGateway();
    ({ key } = await gateway.createUserWithKey({ balanceMicros: 50_000_000 }));
  });
  after(() => gateway.close());

  test(`seed ${seed}: up to ${maxCases} generated bodies within ${maxDurationMs / 1000} s`, async () => {
    const random = createRandom(seed);
    const paths = Object.keys(validBodies) as V1Path[];
    const startedMs = Date.now();
    const statuses = new Map<number, number>();
    let cases = 0;
    for (; cases < maxCases && Date.now() - startedMs < maxDurationMs; cases += 1) {
      const path = paths[cases % paths.length]!;
      const body =
        cases % 10 === 9
          ? rawBodies[Math.floor(random() * rawBodies.length)]!
          : JSON.stringify(mutate(validBodies[path], random));
      const response = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'x-api-key': key, 'content-type': 'application/json' },
        body,
      });
      const text = await response.text();
      const label = `case ${cases} (${path}): ${body.slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      assert.ok(response.status < 500, label);
      if (response.status < 400) continue;
      const parsed = JSON.parse(text) as { type?: string; error?: Record<string, unknown> };
      if (path === '/v1/messages') {
        assert.equal(parsed.type, 'error', label);
        assert.deepEqual(Object.keys(parsed.error ?? {}).sort(), ['message', 'type'], label);
      } else {
        assert.deepEqual(Object.keys(parsed.error ?? {}).sort(), ['code', 'message', 'param', 'type'], label);
      }
    }
    // The figures of the run, for the log of the test command.
    console.log(
      `fuzz seed ${seed}: ${cases} cases in ${Date.now() - startedMs} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    assert.ok(cases >= 100, `at least 100 cases ran (${cases})`);
    assert.ok(
      [...statuses.keys()].some((status) => status >= 400),
      'the generator produced refusals',
    );
  });
});
