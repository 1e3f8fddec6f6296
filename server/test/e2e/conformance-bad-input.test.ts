import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { loadOpenApiSchemaValidator, type OpenApiSchemaValidator } from '../support/openapi-schema-validator.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type BadInputCase = {
  name: string;
  body: string | Uint8Array<ArrayBuffer>;
  status: number;
  param: string | null;
  code: string;
};

const bodyLimitBytes = 1024 * 1024;
const hello = '[{"role": "user", "content": "Hello"}]';
const nestingLevels = 100_000;
const deepArray = `${'['.repeat(nestingLevels)}${']'.repeat(nestingLevels)}`;
const deepObject = `${'{"a":'.repeat(nestingLevels)}1${'}'.repeat(nestingLevels)}`;
const invalidUtf8 = new Uint8Array(
  Buffer.concat([
    Buffer.from('{"model": "gpt-4o", "messages": [{"role": "user", "content": "caf'),
    Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
    Buffer.from('"}]}'),
  ]),
);

const cases: readonly BadInputCase[] = [
  { name: 'invalid JSON', body: '{"model": "gpt-4o", "messages": [', status: 400, param: null, code: 'invalid_json' },
  { name: 'a JSON array instead of an object', body: hello, status: 400, param: null, code: 'invalid_json' },
  { name: 'an empty body', body: '', status: 400, param: null, code: 'invalid_json' },
  { name: 'model of the wrong type', body: `{"model": 42, "messages": ${hello}}`, ...invalid('model') },
  {
    name: 'temperature of the wrong type',
    body: `{"model": "gpt-4o", "temperature": "hot", "messages": ${hello}}`,
    ...invalid('temperature'),
  },
  {
    name: 'max_tokens of the wrong type',
    body: `{"model": "gpt-4o", "max_tokens": "10", "messages": ${hello}}`,
    ...invalid('max_tokens'),
  },
  {
    name: 'stream of the wrong type',
    body: `{"model": "gpt-4o", "stream": "yes", "messages": ${hello}}`,
    ...invalid('stream'),
  },
  {
    name: 'message content of the wrong type',
    body: '{"model": "gpt-4o", "messages": [{"role": "user", "content": 5}]}',
    ...invalid('messages[0].content'),
  },
  { name: 'n over its limit of 128', body: `{"model": "gpt-4o", "n": 129, "messages": ${hello}}`, ...invalid('n') },
  { name: 'missing model', body: `{"messages": ${hello}}`, ...missing('model') },
  { name: 'missing messages', body: '{"model": "gpt-4o"}', ...missing('messages') },
  { name: 'an empty messages array', body: '{"model": "gpt-4o", "messages": []}', ...invalid('messages') },
  {
    name: 'an empty messages array on a stream',
    body: '{"model": "gpt-4o", "stream": true, "messages": []}',
    ...invalid('messages'),
  },
  {
    name: 'a body over the size limit',
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(bodyLimitBytes) }] }),
    status: 413,
    param: null,
    code: 'payload_too_large',
  },
  { name: 'invalid UTF-8 bytes', body: invalidUtf8, status: 400, param: null, code: 'invalid_json' },
  {
    name: `arrays nested ${nestingLevels} levels deep in an extra field`,
    body: `{"model": "gpt-4o", "messages": ${hello}, "extra": ${deepArray}}`,
    ...invalid('extra'),
  },
  {
    name: `objects nested ${nestingLevels} levels deep inside a message`,
    body: `{"model": "gpt-4o", "messages": [{"role": "user", "content": "x", "extra": ${deepObject}}]}`,
    ...invalid('messages'),
  },
  {
    name: 'a tool message without a preceding tool call',
    body: '{"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "call_1", "content": "21"}]}',
    ...invalid('messages[1].tool_call_id'),
  },
  {
    name: 'a tool message answering a call id the assistant did not make',
    body: JSON.stringify({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_b', content: '21' },
      ],
    }),
    ...invalid('messages[2].tool_call_id'),
  },
];

function invalid(param: string) {
  return { status: 400, param, code: 'invalid_value' };
}
function missing(param: string) {
  return { status: 400, param, code: 'missing_required_parameter' };
}

describe('bad input to /v1/chat/completions: the right error, no upstream call, no charge', () => {
  let gateway: TestGateway;
  let validator: OpenApiSchemaValidator;
  let key: string;
  let userId: string;

  before(async () => {
    validator = loadOpenApiSchemaValidator();
    gateway = await startTestGateway({ environment: { BODY_LIMIT_BYTES: String(bodyLimitBytes) } });
    ({ key, userId } = await gateway.createUserWithKey({ balanceMicros: 100_000_000 }));
  });
  after(() => gateway.close());

  const upstreamRequests = async () => {
    const stats = await fetch(`${gateway.gateway.simulator?.url}/_sim/stats`);
    return ((await stats.json()) as { totalRequests: number }).totalRequests;
  };
  const balance = () => sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
  const post = (body: string | Uint8Array<ArrayBuffer>) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });

  for (const badInput of cases) {
    test(`${badInput.name}: ${badInput.status} naming ${badInput.param ?? 'no field'}`, async () => {
      const [requestsBefore, balanceBefore] = [await upstreamRequests(), await balance()];
      const response = await post(badInput.body);
      assert.equal(response.status, badInput.status);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as { error: { param: string | null; code: string } };
      assert.deepEqual(validator.problemsOf('ErrorResponse', body), []);
      assert.equal(body.error.param, badInput.param);
      assert.equal(body.error.code, badInput.code);
      assert.equal(await upstreamRequests(), requestsBefore, 'no upstream call');
      assert.equal(await balance(), balanceBefore, 'no charge');
    });
  }

  test('after all of that the gateway still answers, and that answer does reach the upstream', async () => {
    const requestsBefore = await upstreamRequests();
    const response = await post(`{"model": "gpt-4o", "messages": ${hello}}`);
    assert.equal(response.status, 200);
    assert.deepEqual(validator.problemsOf('CreateChatCompletionResponse', await response.json()), []);
    assert.equal(await upstreamRequests(), requestsBefore + 1);
  });
});
