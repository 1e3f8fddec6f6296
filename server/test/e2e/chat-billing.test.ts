import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { findUserById } from '../../src/db/users.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { callApi, signIn } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

type Sdk = OpenAI;
const usageCost = (usage: unknown) => (usage as { cost: number }).cost;

for (const databaseKind of databaseKinds) {
  describe(`chat billing and bad input on ${databaseKind}`, () => {
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
      return {
        ...user,
        client: new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 }) as Sdk,
      };
    };
    const postRaw = (key: string, body: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });

    test('bad requests get 400 naming the parameter, and nothing is charged', async () => {
      const { key, userId } = await newClient();
      const before = await balanceOf(userId);
      const cases: Array<[string, number, string | null, string]> = [
        ['{"model": "gpt-4o"}', 400, 'messages', 'missing_required_parameter'],
        [
          '{"model": "gpt-4o", "messages": [{"role": "user"}]}',
          400,
          'messages[0].content',
          'missing_required_parameter',
        ],
        [
          '{"model": "gpt-4o", "messages": [{"role": "wizard", "content": "x"}]}',
          400,
          'messages[0].role',
          'invalid_value',
        ],
        ['{"model": "gpt-4o", "messages": "hello"}', 400, 'messages', 'invalid_value'],
        ['{"model": "gpt-4o", "messages": [', 400, null, 'invalid_json'],
        ['[1, 2]', 400, null, 'invalid_json'],
        ['{"model": "no-such-model", "messages": [{"role": "user", "content": "x"}]}', 404, 'model', 'model_not_found'],
        ['{"model": "dall-e-3", "messages": [{"role": "user", "content": "x"}]}', 404, 'model', 'model_not_found'],
      ];
      for (const [body, status, param, code] of cases) {
        const response = await postRaw(key, body);
        assert.equal(response.status, status, body);
        const error = ((await response.json()) as { error: { param: string | null; code: string; type: string } })
          .error;
        assert.equal(error.param, param, body);
        assert.equal(error.code, code, body);
      }
      assert.equal(await balanceOf(userId), before);
    });

    test('a missing or revoked key is 401; a model outside the allowlist is 403', async () => {
      assert.equal((await postRaw('sk-nope', '{}')).status, 401);
      const email = `revoked-${databaseKind}-${Date.now()}@example.com`;
      const revoked = await newClient({ email });
      const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
      assert.equal((await postRaw(revoked.key, body)).status, 200, 'the key works before it is revoked');
      const session = await signIn(gateway.url, { email });
      const keys = (await callApi(gateway.url, '/api/keys', { session })).json as { data: Array<{ id: string }> };
      const keyId = keys.data[0]?.id ?? '';
      assert.equal((await callApi(gateway.url, `/api/keys/${keyId}`, { method: 'DELETE', session })).status, 200);
      const refused = await postRaw(revoked.key, body);
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
      const { client } = await newClient({ key: { allowedModels: ['gpt-4o-mini'] } });
      await assert.rejects(
        client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
        (error: unknown) => error instanceof OpenAI.PermissionDeniedError && error.code === 'model_not_allowed',
      );
      const allowed = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
      });
      assert.equal(allowed.model, 'gpt-4o-mini');
    });

    test('an empty balance is a 402 that the SDK does not retry', async () => {
      const { client, userId } = await newClient({ balanceMicros: 0 });
      await assert.rejects(
        client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] }),
        (error: unknown) => error instanceof OpenAI.APIError && error.status === 402,
      );
      assert.equal(await balanceOf(userId), 0);
    });

    test('over the per-key rate limit: 429 with Retry-After and x-ratelimit headers', async () => {
      const { key } = await newClient({ key: { requestsPerMinute: 2 } });
      const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
      const first = await postRaw(key, body);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-ratelimit-limit-requests'), '2');
      await postRaw(key, body);
      const limited = await postRaw(key, body);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal(limited.headers.get('x-ratelimit-remaining-requests'), '0');
      assert.equal(((await limited.json()) as { error: { type: string } }).error.type, 'requests');
    });

    test("the vendor's own 400 is returned as a 400, not retried, and costs nothing", async () => {
      const { client, userId } = await newClient();
      const before = await balanceOf(userId);
      await assert.rejects(
        client.chat.completions.create({
          model: 'claude-sonnet-4-5',
          messages: [{ role: 'user', content: 'x [sim:status=400]' }],
        }),
        (error: unknown) => error instanceof OpenAI.BadRequestError,
      );
      assert.equal(await balanceOf(userId), before);
    });

    test('an upstream 503 on every route is a 502 with x-should-retry, no charge, and a failed usage record', async () => {
      const { key, userId } = await newClient();
      const before = await balanceOf(userId);
      const response = await postRaw(
        key,
        JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x [sim:status=503]' }] }),
      );
      assert.equal(response.status, 502);
      assert.equal(response.headers.get('x-should-retry'), 'true');
      const requestId = response.headers.get('x-request-id') ?? '';
      assert.equal(await balanceOf(userId), before);
      const record = await findUsageRecord(db(), requestId);
      assert.equal(record?.status, 'failed');
      assert.equal(record?.cost_micros, 0);
    });

    test('a mid-stream vendor error ends the stream with an error event and bills only what was delivered', async () => {
      const { client, userId } = await newClient();
      const before = await balanceOf(userId);
      const stream = await client.chat.completions.create({
        model: 'gpt-4o',
        stream: true,
        messages: [{ role: 'user', content: 'Tell a story [sim:mid-stream-error] [sim:words=40]' }],
      });
      let text = '';
      let id = '';
      await assert.rejects(async () => {
        for await (const chunk of stream) {
          id = chunk.id;
          text += chunk.choices[0]?.delta.content ?? '';
        }
      }, OpenAI.APIError);
      assert.ok(text.length > 0, 'part of the answer arrived');
      const record = await findUsageRecord(db(), id.replace(/^chatcmpl-/, ''));
      assert.equal(record?.status, 'interrupted');
      assert.ok(record && record.output_tokens > 0 && record.output_tokens < 40);
      assert.equal(before - (await balanceOf(userId)), record.cost_micros);
    });

    test('a client that leaves mid-stream stops the upstream and pays only for what it received', async () => {
      const { client, userId } = await newClient();
      const before = await balanceOf(userId);
      const simulatorStats = async () =>
        (await (await fetch(`${gateway.gateway.simulator?.url}/_sim/stats`)).json()) as {
          openStreams: number;
          abortedStreams: number;
        };
      const statsBefore = await simulatorStats();
      const controller = new AbortController();
      const stream = await client.chat.completions.create(
        {
          model: 'claude-sonnet-4-5',
          stream: true,
          messages: [{ role: 'user', content: 'Go on [sim:words=400]' }],
        },
        { signal: controller.signal },
      );
      let id = '';
      let received = 0;
      try {
        for await (const chunk of stream) {
          id = chunk.id;
          received += 1;
          if (received === 5) controller.abort();
        }
      } catch (error) {
        assert.ok(error instanceof OpenAI.APIUserAbortError, String(error));
      }
      assert.ok(received >= 5 && received < 100, `${received} chunks before the stream stopped`);
      let statsAfter = await simulatorStats();
      for (let wait = 0; wait < 100 && statsAfter.abortedStreams === statsBefore.abortedStreams; wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        statsAfter = await simulatorStats();
      }
      assert.equal(statsAfter.abortedStreams, statsBefore.abortedStreams + 1, 'the upstream stream was aborted');
      assert.equal(statsAfter.openStreams, statsBefore.openStreams, 'and is no longer open');
      const requestId = id.replace(/^chatcmpl-/, '');
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

    test('a balance too small for the requested output lowers the output limit instead of refusing', async () => {
      const { client, userId } = await newClient({ balanceMicros: 2_000 });
      const response = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Write at length [sim:words=2000]' }],
      });
      assert.equal(response.choices[0]?.finish_reason, 'length');
      const cost = usageCost(response.usage);
      assert.ok(cost > 0 && cost <= microsToUsd(2_000));
      assert.ok((await balanceOf(userId)) >= 0);
    });

    test('60 concurrent calls on a balance that covers a few never overdraw, and the ledger matches every cost', async () => {
      const { client, userId } = await newClient({ balanceMicros: 3_000 });
      const results = await Promise.allSettled(
        Array.from({ length: 60 }, (_, index) =>
          client.chat.completions.create({
            model: 'gpt-4o-mini',
            max_completion_tokens: 3000,
            messages: [{ role: 'user', content: `Call ${index} [sim:words=200]` }],
          }),
        ),
      );
      const succeeded = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter(
        (result) => result.status === 'rejected' && (result.reason as { status?: number }).status === 402,
      );
      assert.equal(succeeded.length + refused.length, 60, 'every call either answered or was refused with 402');
      const cut = succeeded.filter((result) => result.value.choices[0]?.finish_reason === 'length');
      assert.ok(succeeded.length > 0, 'some calls were served');
      assert.ok(refused.length + cut.length > 0, 'the balance ran out: calls were refused or their output lowered');
      const charged = succeeded.reduce((sum, result) => sum + Math.round(usageCost(result.value.usage) * 1e6), 0);
      const balance = await balanceOf(userId);
      assert.ok(balance >= 0, `balance ${balance} never below zero`);
      assert.equal(3_000 - balance, charged, 'the ledger debited exactly the sum of usage.cost');
      assert.equal((await findUserById(db(), userId))?.balance_micros, balance, 'cached balance equals the ledger');
    });

    test('no prompt or completion text is stored in the database or written to the logs', async () => {
      const { client } = await newClient();
      const marker = `zebra-marker-${Date.now()}`;
      const response = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: `Remember ${marker}` }],
      });
      const answer = response.choices[0]?.message.content ?? '';
      const stream = await client.chat.completions.create({
        model: 'gemini-2.5-flash',
        stream: true,
        messages: [{ role: 'user', content: `Again ${marker}` }],
      });
      for await (const chunk of stream) assert.ok(chunk);
      const tables = await db().introspection.getTables();
      let stored = '';
      for (const table of tables) {
        const rows = await db()
          .selectFrom(table.name as never)
          .selectAll()
          .execute();
        stored += JSON.stringify(rows);
      }
      assert.ok(stored.includes(response.id.replace(/^chatcmpl-/, '')), 'the dump holds the usage rows');
      assert.ok(!stored.includes(marker), 'the prompt is not stored');
      assert.ok(!stored.includes(answer), 'the answer is not stored');
      const logs = logLines.join('');
      assert.ok(logs.includes('"msg":"request"'), 'logs were captured');
      assert.ok(!logs.includes(marker) && !logs.includes(answer), 'no text in the logs');
    });
  });
}
