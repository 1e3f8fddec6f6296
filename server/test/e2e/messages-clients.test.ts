import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** One model of each family the issue names: Claude, GPT (one reasoning, one not), Gemini, DeepSeek. */
const familyModels = ['claude-sonnet-4-5', 'gpt-5', 'gpt-4o', 'gemini-2.5-flash', 'deepseek-chat'];
const textOf = (message: Anthropic.Message) =>
  message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

type AnthropicErrorBody = { type: string; error: { type: string; message: string }; request_id: string };

/** Issue #18: what current Anthropic clients (Claude Code, the SDK's beta helpers, LiteLLM) send to /v1/messages. */
describe('/v1/messages accepts what current Anthropic clients send', () => {
  let gateway: TestGateway;
  let client: Anthropic;
  let key: string;
  let userId: string;

  before(async () => {
    gateway = await startTestGateway();
    const user = await gateway.createUserWithKey({ balanceMicros: 50_000_000 });
    ({ key, userId } = user);
    client = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0, logLevel: 'off' });
  });
  after(() => gateway.close());

  const db = () => gateway.gateway.database.db;
  const balance = () => sumLedgerAccount(db(), userLedgerAccount(userId));
  const post = (path: string, body: unknown, headers: Record<string, string> = { 'x-api-key': key }) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
      body: JSON.stringify(body),
    });

  test('a system turn inside messages, effort and adaptive thinking answer on every family, reasoning or not', async () => {
    for (const model of familyModels) {
      const body = {
        model,
        max_tokens: 4096,
        stream: false,
        thinking: { type: 'adaptive' },
        output_config: { effort: 'high' },
        messages: [
          { role: 'user', content: 'Hello.' },
          { role: 'assistant', content: 'Hi.' },
          { role: 'system', content: [{ type: 'text', text: 'From now on, answer in French.' }] },
          { role: 'user', content: 'Name a river.' },
        ],
      };
      const response = await post('/v1/messages', body);
      const answer = (await response.json()) as Anthropic.Message;
      assert.equal(response.status, 200, `${model}: ${JSON.stringify(answer)}`);
      assert.equal(answer.model, model);
      assert.ok(textOf(answer).length > 0, model);
      const record = await findUsageRecord(db(), answer.id.replace(/^msg_/, 'req_'));
      assert.equal(record?.status, 'completed', model);
    }
  });

  test('a system turn between a tool call and its result keeps the tool loop valid', async () => {
    const tool = {
      name: 'get_weather',
      description: 'Weather for a city',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    for (const model of familyModels) {
      const response = await post('/v1/messages', {
        model,
        max_tokens: 1024,
        tools: [tool],
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
          },
          { role: 'system', content: 'Keep it short.' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }] },
        ],
      });
      assert.equal(response.status, 200, `${model}: ${await response.clone().text()}`);
      assert.equal(((await response.json()) as Anthropic.Message).stop_reason, 'end_turn', model);
    }
  });

  test('the beta output_format gives JSON that follows the schema', async () => {
    for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash']) {
      const response = await post('/v1/messages', {
        model,
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Give me a city.' }],
        output_format: {
          type: 'json_schema',
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, population: { type: 'integer' } },
            required: ['name', 'population'],
            additionalProperties: false,
          },
        },
      });
      assert.equal(response.status, 200, model);
      const value = JSON.parse(textOf((await response.json()) as Anthropic.Message)) as Record<string, unknown>;
      assert.equal(typeof value.name, 'string', model);
      assert.ok(Number.isInteger(value.population), model);
    }
  });

  test('thread is refused with a stateless 400 naming it, and nothing is charged', async () => {
    const before = await balance();
    const response = await post('/v1/messages', {
      model: 'gpt-4o',
      max_tokens: 64,
      thread: { type: 'create' },
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const body = (await response.json()) as AnthropicErrorBody;
    assert.equal(response.status, 400);
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /^thread is not supported: this gateway is stateless/);
    assert.equal(await findUsageRecord(db(), body.request_id), undefined);
    assert.equal(await balance(), before);
  });

  test("a bad or missing key gets Anthropic's own texts, which its clients recognise", async () => {
    const bad = await post('/v1/messages', { model: 'gpt-4o', max_tokens: 8, messages: [] }, { 'x-api-key': 'sk-x' });
    assert.equal(bad.status, 401);
    const badBody = (await bad.json()) as AnthropicErrorBody;
    assert.deepEqual(badBody.error, { type: 'authentication_error', message: 'invalid x-api-key' });
    const missing = await post('/v1/messages', { model: 'gpt-4o', max_tokens: 8, messages: [] }, {});
    assert.equal(missing.status, 401);
    assert.equal(((await missing.json()) as AnthropicErrorBody).error.message, 'x-api-key header is required');
    const sdk = new Anthropic({ apiKey: 'sk-wrong', baseURL: gateway.url, maxRetries: 0, logLevel: 'off' });
    await assert.rejects(
      sdk.messages.create({ model: 'gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
      Anthropic.AuthenticationError,
    );
  });

  test('unknown /v1/messages paths and wrong methods get Anthropic-shaped 404s', async () => {
    const answers = [
      await post('/v1/messages/batches/nope', {}),
      await fetch(`${gateway.url}/v1/messages`, { headers: { 'x-api-key': key } }),
      await fetch(`${gateway.url}/v1/messages/count_tokens`, { headers: { 'x-api-key': key } }),
    ];
    for (const response of answers) {
      assert.equal(response.status, 404);
      const body = (await response.json()) as AnthropicErrorBody;
      assert.equal(body.type, 'error');
      assert.equal(body.error.type, 'not_found_error');
      assert.match(body.error.message, /Unknown path/);
    }
  });

  test('count_tokens counts every text model through the SDK, free of charge; Anthropic counts Claude models', async () => {
    const before = await balance();
    const list = await fetch(`${gateway.url}/v1/models`, { headers: { 'x-api-key': key } });
    const models = ((await list.json()) as { data: Array<{ id: string; kind: string }> }).data;
    const textModels = models.filter((model) => model.kind === 'text');
    assert.ok(textModels.length >= 30);
    for (const model of textModels) {
      const small = await client.messages.countTokens({
        model: model.id,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const large = await client.messages.countTokens({
        model: model.id,
        system: 'You are terse.',
        messages: [{ role: 'user', content: 'Tell me about rivers. '.repeat(200) }],
      });
      assert.ok(small.input_tokens > 0, model.id);
      assert.ok(large.input_tokens > small.input_tokens + 500, `${model.id}: ${large.input_tokens}`);
    }
    assert.equal(await balance(), before);
    // Claude models are counted by Anthropic's own count endpoint: the same number a call with that input reports.
    const input = {
      system: 'You are terse.',
      messages: [{ role: 'user' as const, content: 'Tell me about rivers. '.repeat(50) }],
      thinking: { type: 'enabled' as const, budget_tokens: 2048 },
    };
    const counted = await client.messages.countTokens({ model: 'claude-sonnet-4-5', ...input });
    const answered = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 4096, ...input });
    const usage = answered.usage;
    assert.equal(
      counted.input_tokens,
      usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
    );
    // Gemini models are counted by Gemini's own `:countTokens`, system instruction and tools included.
    const geminiInput = {
      system: 'You are terse.',
      messages: [{ role: 'user' as const, content: 'Tell me about rivers. '.repeat(50) }],
      tools: [{ name: 'lookup', description: 'Look a river up.', input_schema: { type: 'object' as const } }],
    };
    const geminiCounted = await client.messages.countTokens({ model: 'gemini-2.5-flash', ...geminiInput });
    const geminiAnswered = await client.messages.create({ model: 'gemini-2.5-flash', max_tokens: 512, ...geminiInput });
    assert.equal(
      geminiCounted.input_tokens,
      geminiAnswered.usage.input_tokens + (geminiAnswered.usage.cache_read_input_tokens ?? 0),
    );
    await assert.rejects(
      client.messages.countTokens({ model: 'no-such-model', messages: [{ role: 'user', content: 'Hi' }] }),
      Anthropic.NotFoundError,
    );
  });
});
