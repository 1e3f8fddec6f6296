import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

type AnthropicErrorBody = { type: string; error: { type: string; message: string }; request_id: string };
const requestIdOf = (messageId: string) => messageId.replace(/^msg_/, 'req_');
const costOf = (usage: unknown) => (usage as { cost: number }).cost;

for (const databaseKind of databaseKinds) {
  describe(`/v1/messages billing and errors on ${databaseKind}`, () => {
    let gateway: TestGateway;
    const logLines: string[] = [];

    before(async () => {
      gateway = await startTestGateway({ databaseKind, logStream: { write: (line) => logLines.push(line) } });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const db = () => gateway.gateway.database.db;
    const balanceOf = (userId: string) => sumLedgerAccount(db(), userLedgerAccount(userId));
    const newClient = async (options: Parameters<TestGateway['createUserWithKey']>[0] = {}) => {
      const user = await gateway.createUserWithKey(options);
      const client = new Anthropic({ apiKey: user.key, baseURL: gateway.url, maxRetries: 0, logLevel: 'off' });
      return { ...user, client };
    };
    const postRaw = (headers: Record<string, string>, body: string) =>
      fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
        body,
      });
    const readError = async (response: Response) => {
      const body = (await response.json()) as AnthropicErrorBody;
      assert.equal(body.type, 'error');
      assert.equal(body.request_id, response.headers.get('request-id'));
      return body.error;
    };

    test('usage.cost equals the ledger debit, streamed and not, with the key as x-api-key or as a bearer token', async () => {
      const { client, key, userId } = await newClient();
      let balance = await balanceOf(userId);
      const message = await client.messages.create({
        model: 'gpt-4o',
        max_tokens: 512,
        messages: [{ role: 'user', content: 'Hello there' }],
      });
      const record = await findUsageRecord(db(), requestIdOf(message.id));
      assert.ok(record && record.cost_micros > 0);
      assert.equal(costOf(message.usage), microsToUsd(record.cost_micros));
      assert.equal(balance - (await balanceOf(userId)), record.cost_micros);

      balance = await balanceOf(userId);
      const bearerClient = new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0 });
      const stream = await bearerClient.messages.create({
        model: 'claude-opus-4-5',
        max_tokens: 512,
        stream: true,
        messages: [{ role: 'user', content: 'Hello again [sim:words=12]' }],
      });
      let id = '';
      let streamedCost: number | undefined;
      for await (const event of stream) {
        if (event.type === 'message_start') id = event.message.id;
        if (event.type === 'message_delta') streamedCost = costOf(event.usage);
      }
      const streamed = await findUsageRecord(db(), requestIdOf(id));
      assert.ok(streamed && streamed.cost_micros > 0);
      assert.equal(streamedCost, microsToUsd(streamed.cost_micros));
      assert.equal(balance - (await balanceOf(userId)), streamed.cost_micros);
    });

    test('a bad key is 401 authentication_error; a model outside the allowlist is 403 permission_error', async () => {
      const badClient = new Anthropic({ apiKey: 'sk-nope', baseURL: gateway.url, maxRetries: 0 });
      await assert.rejects(
        badClient.messages.create({ model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
        (error: unknown) => error instanceof Anthropic.AuthenticationError && error.type === 'authentication_error',
      );
      const missing = await postRaw({}, '{}');
      assert.equal(missing.status, 401);
      assert.equal((await readError(missing)).type, 'authentication_error');
      const { client } = await newClient({ key: { allowedModels: ['gpt-4o-mini'] } });
      await assert.rejects(
        client.messages.create({ model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
        (error: unknown) => error instanceof Anthropic.PermissionDeniedError && error.type === 'permission_error',
      );
    });

    test('bad requests get a 400 invalid_request_error (404 not_found_error for an unknown model) and cost nothing', async () => {
      const { key, userId, client } = await newClient();
      const before = await balanceOf(userId);
      const cases: Array<[string, number, string, RegExp]> = [
        [
          '{"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}]}',
          400,
          'invalid_request_error',
          /max_tokens/,
        ],
        ['{"model": "gpt-4o", "max_tokens": 10}', 400, 'invalid_request_error', /messages/],
        [
          '{"model": "gpt-4o", "max_tokens": 10, "messages": [{"role": "tool", "content": "x"}]}',
          400,
          'invalid_request_error',
          /messages\[0\]\.role/,
        ],
        [
          '{"model": "gpt-4o", "max_tokens": 10, "messages": [{"role": "system", "content": "x"}]}',
          400,
          'invalid_request_error',
          /only system turns/,
        ],
        [
          '{"model": "gpt-4o", "max_tokens": 10, "temperature": 1.5, "messages": [{"role": "user", "content": "x"}]}',
          400,
          'invalid_request_error',
          /temperature/,
        ],
        ['{"model": "gpt-4o", "max_tokens": 10, "messages": [', 400, 'invalid_request_error', /JSON/],
        [
          '{"model": "no-such-model", "max_tokens": 10, "messages": [{"role": "user", "content": "x"}]}',
          404,
          'not_found_error',
          /no-such-model/,
        ],
      ];
      for (const [body, status, type, message] of cases) {
        const response = await postRaw({ 'x-api-key': key }, body);
        assert.equal(response.status, status, body);
        const error = await readError(response);
        assert.equal(error.type, type, body);
        assert.match(error.message, message, body);
      }
      await assert.rejects(
        client.messages.create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
        (error: unknown) => error instanceof Anthropic.NotFoundError && error.type === 'not_found_error',
      );
      assert.equal(await balanceOf(userId), before);
    });

    test('an empty balance is a 402 billing_error and costs nothing', async () => {
      const { key, userId } = await newClient({ balanceMicros: 0 });
      const brokeClient = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
      await assert.rejects(
        brokeClient.messages.create({
          model: 'gpt-4o',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'hello' }],
        }),
        (error: unknown) =>
          error instanceof Anthropic.APIError && error.status === 402 && error.type === 'billing_error',
      );
      assert.equal(await balanceOf(userId), 0);
    });

    test('over the per-key rate limit: 429 rate_limit_error with retry-after', async () => {
      const { key, client } = await newClient({ key: { requestsPerMinute: 2 } });
      const body = JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
      assert.equal((await postRaw({ 'x-api-key': key }, body)).status, 200);
      assert.equal((await postRaw({ 'x-api-key': key }, body)).status, 200);
      const limited = await postRaw({ 'x-api-key': key }, body);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal((await readError(limited)).type, 'rate_limit_error');
      await assert.rejects(
        client.messages.create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
        (error: unknown) => error instanceof Anthropic.RateLimitError && error.type === 'rate_limit_error',
      );
    });

    test('an upstream failure on every route is a 502 api_error with no charge', async () => {
      const { key, userId } = await newClient();
      const before = await balanceOf(userId);
      const response = await postRaw(
        { 'x-api-key': key },
        JSON.stringify({
          model: 'gpt-4o',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'x [sim:status=503]' }],
        }),
      );
      assert.equal(response.status, 502);
      assert.equal((await readError(response)).type, 'api_error');
      assert.equal(await balanceOf(userId), before);
    });

    test('a mid-stream vendor error ends the stream with an error event and bills only what was delivered', async () => {
      const { client, userId } = await newClient();
      const before = await balanceOf(userId);
      const stream = client.messages.stream({
        model: 'gpt-4o',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Tell a story [sim:mid-stream-error] [sim:words=40]' }],
      });
      let text = '';
      let id = '';
      await assert.rejects(
        async () => {
          for await (const event of stream) {
            if (event.type === 'message_start') id = event.message.id;
            if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
          }
        },
        (error: unknown) => error instanceof Anthropic.APIError && error.type === 'api_error',
      );
      assert.ok(text.length > 0, 'part of the answer arrived');
      const record = await findUsageRecord(db(), requestIdOf(id));
      assert.equal(record?.status, 'interrupted');
      assert.ok(record && record.output_tokens > 0 && record.output_tokens < 40);
      assert.equal(before - (await balanceOf(userId)), record.cost_micros);
    });

    test('a client that leaves mid-stream stops the upstream and pays only for what it received', async () => {
      const { client, userId } = await newClient();
      const before = await balanceOf(userId);
      const controller = new AbortController();
      const stream = await client.messages.create(
        {
          model: 'claude-opus-4-5',
          max_tokens: 4096,
          stream: true,
          messages: [{ role: 'user', content: 'Go on [sim:words=400]' }],
        },
        { signal: controller.signal },
      );
      let id = '';
      let deltas = 0;
      try {
        for await (const event of stream) {
          if (event.type === 'message_start') id = event.message.id;
          if (event.type === 'content_block_delta') deltas += 1;
          if (deltas === 5) controller.abort();
        }
      } catch (error) {
        assert.ok(error instanceof Anthropic.APIUserAbortError, String(error));
      }
      const requestId = requestIdOf(id);
      let record = await findUsageRecord(db(), requestId);
      for (let wait = 0; wait < 100 && !record; wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        record = await findUsageRecord(db(), requestId);
      }
      assert.equal(record?.status, 'interrupted');
      assert.equal(record?.error_code, 'client_disconnected');
      assert.ok(record && record.output_tokens > 0 && record.output_tokens < 100, `${record?.output_tokens} tokens`);
      assert.equal(before - (await balanceOf(userId)), record.cost_micros);
    });

    test('no prompt or completion text is stored in the database or written to the logs', async () => {
      const { client } = await newClient();
      const marker = `okapi-marker-${Date.now()}`;
      const message = await client.messages.create({
        model: 'gpt-4o',
        max_tokens: 256,
        system: `System ${marker}`,
        messages: [{ role: 'user', content: `Remember ${marker}` }],
      });
      const answer = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      const final = await client.messages
        .stream({
          model: 'gemini-2.5-flash',
          max_tokens: 256,
          messages: [{ role: 'user', content: `Again ${marker}` }],
        })
        .finalMessage();
      const streamedAnswer = final.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      let stored = '';
      for (const table of await db().introspection.getTables()) {
        const rows = await db()
          .selectFrom(table.name as never)
          .selectAll()
          .execute();
        stored += JSON.stringify(rows);
      }
      assert.ok(stored.includes(requestIdOf(message.id)), 'the dump holds the usage rows');
      for (const text of [marker, answer, streamedAnswer]) {
        assert.ok(text.length > 0 && !stored.includes(text), 'no request or answer text in the database');
        assert.ok(!logLines.join('').includes(text), 'no request or answer text in the logs');
      }
      assert.ok(logLines.join('').includes('"msg":"request"'), 'logs were captured');
    });
  });
}
