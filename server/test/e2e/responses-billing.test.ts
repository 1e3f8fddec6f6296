import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { priceTokenUsage } from '../../src/billing/pricing.ts';
import { loadPriceList } from '../../src/catalog/price-list.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { loadOpenApiSchemaValidator, type OpenAiSchemaName } from '../support/openapi-schema-validator.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

type CostedUsage = OpenAI.Responses.ResponseUsage & { cost: number };
const schemas = loadOpenApiSchemaValidator();
// The shared validator's name list predates the Responses API; this is a schema of the same OpenAPI file.
const streamEventSchema = 'ResponseStreamEvent' as OpenAiSchemaName;

for (const databaseKind of databaseKinds) {
  describe(`Responses API billing on ${databaseKind}`, () => {
    let gateway: TestGateway;
    const logLines: string[] = [];

    before(async () => {
      gateway = await startTestGateway({ databaseKind, logStream: { write: (line) => logLines.push(line) } });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const db = () => gateway.gateway.database.db;
    const balanceOf = (userId: string) => sumLedgerAccount(db(), userLedgerAccount(userId));
    const newClient = async () => {
      const user = await gateway.createUserWithKey({ balanceMicros: 50_000_000 });
      return { ...user, client: new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 }) };
    };
    /** What the live rates charge for these tokens: no per-search fee on top. */
    const tokenPriceMicros = async (modelId: string, usage: CostedUsage) => {
      const model = (await loadPriceList(db())).find(modelId);
      assert.ok(model);
      return priceTokenUsage(model, {
        inputTokens: usage.input_tokens,
        cachedInputTokens: usage.input_tokens_details.cached_tokens,
        cacheWriteInputTokens: usage.input_tokens_details.cache_write_tokens ?? 0,
        outputTokens: usage.output_tokens,
        reasoningTokens: usage.output_tokens_details.reasoning_tokens,
      });
    };
    const waitForRecord = async (requestId: string) => {
      let record = await findUsageRecord(db(), requestId);
      for (let attempt = 0; attempt < 100 && !record; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        record = await findUsageRecord(db(), requestId);
      }
      return record;
    };

    test('web search: every round’s input is billed as tokens, usage.cost equals the ledger debit, no search fee', async () => {
      const { client, userId } = await newClient();
      const plain = await client.responses.create({ model: 'gpt-4o-mini', input: 'What causes ocean tides?' });
      const balanceBefore = await balanceOf(userId);
      const { data: searched, response: http } = await client.responses
        .create({ model: 'gpt-4o-mini', input: 'What causes ocean tides?', tools: [{ type: 'web_search' }] })
        .withResponse();
      const usage = searched.usage as CostedUsage;
      const plainUsage = plain.usage as CostedUsage;
      assert.ok(
        usage.input_tokens > 2 * plainUsage.input_tokens,
        `two rounds and the results (${usage.input_tokens} vs ${plainUsage.input_tokens} tokens without search)`,
      );
      const record = await findUsageRecord(db(), http.headers.get('x-request-id') ?? '');
      assert.ok(record);
      assert.equal(record.status, 'completed');
      assert.equal(record.input_tokens, usage.input_tokens);
      assert.equal(record.output_tokens, usage.output_tokens);
      assert.equal(record.cost_micros, await tokenPriceMicros('gpt-4o-mini', usage));
      assert.equal(usage.cost, microsToUsd(record.cost_micros));
      assert.equal(balanceBefore - (await balanceOf(userId)), record.cost_micros);
    });

    test('a streamed web search states in response.completed the cost the ledger debits', async () => {
      const { client, userId } = await newClient();
      const balanceBefore = await balanceOf(userId);
      const { data: stream, response: http } = await client.responses
        .create({
          model: 'claude-haiku-4-5',
          input: 'Latest research on coral reefs?',
          tools: [{ type: 'web_search' }],
          stream: true,
        })
        .withResponse();
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
      assert.ok(completed);
      const usage = completed.usage as CostedUsage;
      const record = await findUsageRecord(db(), http.headers.get('x-request-id') ?? '');
      assert.ok(record);
      assert.equal(record.input_tokens, usage.input_tokens);
      assert.equal(record.cost_micros, await tokenPriceMicros('claude-haiku-4-5', usage));
      assert.equal(usage.cost, microsToUsd(record.cost_micros));
      assert.equal(balanceBefore - (await balanceOf(userId)), record.cost_micros);
    });

    test('a failed search costs nothing itself: only the model’s tokens are billed', async () => {
      const { client, userId } = await newClient();
      const balanceBefore = await balanceOf(userId);
      const { data: response, response: http } = await client.responses
        .create({
          model: 'gemini-2.5-flash',
          input: 'News today? [search:status=503]',
          tools: [{ type: 'web_search' }],
        })
        .withResponse();
      assert.equal(response.output.find((item) => item.type === 'web_search_call')?.status, 'failed');
      const usage = response.usage as CostedUsage;
      const record = await findUsageRecord(db(), http.headers.get('x-request-id') ?? '');
      assert.ok(record);
      assert.equal(record.cost_micros, await tokenPriceMicros('gemini-2.5-flash', usage));
      assert.equal(balanceBefore - (await balanceOf(userId)), record.cost_micros);
    });

    test('an upstream failure before any output: a 502 error body, a failed record and no charge', async () => {
      const { client, userId } = await newClient();
      const balanceBefore = await balanceOf(userId);
      const error = await client.responses
        .create({ model: 'gpt-4o-mini', input: 'Hello [sim:status=500]', tools: [{ type: 'web_search' }] })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      assert.ok(error instanceof OpenAI.APIError && error.status === 502, String(error));
      const record = await findUsageRecord(db(), error.requestID ?? '');
      assert.equal(record?.status, 'failed');
      assert.equal(record?.cost_micros, 0);
      assert.equal(await balanceOf(userId), balanceBefore);
    });

    test('a mid-stream vendor error: an error event, then response.failed, and only what was delivered is billed', async () => {
      const { client, userId } = await newClient();
      const balanceBefore = await balanceOf(userId);
      const { data: stream, response: http } = await client.responses
        .create({ model: 'gpt-4o', input: 'Tell a story [sim:mid-stream-error] [sim:words=40]', stream: true })
        .withResponse();
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      assert.deepEqual(
        events.slice(-2).map((event) => event.type),
        ['error', 'response.failed'],
      );
      const failed = events.at(-1);
      assert.ok(failed?.type === 'response.failed' && failed.response.error?.message);
      assert.equal(failed.response.error.code, 'server_error');
      for (const event of events) assert.deepEqual(schemas.problemsOf(streamEventSchema, event), [], event.type);
      const record = await findUsageRecord(db(), http.headers.get('x-request-id') ?? '');
      assert.equal(record?.status, 'interrupted');
      assert.ok(record && record.output_tokens > 0 && record.output_tokens < 40, `${record?.output_tokens} tokens`);
      assert.equal(balanceBefore - (await balanceOf(userId)), record.cost_micros);
    });

    test('a client that leaves mid-stream stops the upstream and pays only for what it received', async () => {
      const { client, userId } = await newClient();
      const balanceBefore = await balanceOf(userId);
      const controller = new AbortController();
      const { data: stream, response: http } = await client.responses
        .create(
          { model: 'deepseek-chat', input: 'Go on [sim:words=400]', tools: [{ type: 'web_search' }], stream: true },
          { signal: controller.signal },
        )
        .withResponse();
      let textDeltas = 0;
      try {
        for await (const event of stream) {
          if (event.type === 'response.output_text.delta') textDeltas += 1;
          if (textDeltas === 5) controller.abort();
        }
      } catch (error) {
        assert.ok(error instanceof OpenAI.APIUserAbortError, String(error));
      }
      const record = await waitForRecord(http.headers.get('x-request-id') ?? '');
      assert.equal(record?.status, 'interrupted');
      assert.equal(record?.error_code, 'client_disconnected');
      assert.ok(record && record.output_tokens > 0 && record.output_tokens < 200, `${record?.output_tokens} tokens`);
      assert.equal(balanceBefore - (await balanceOf(userId)), record.cost_micros);
    });

    test('no prompt, search query or answer text is stored or logged', async () => {
      const { client } = await newClient();
      const marker = `okapi-marker-${Date.now()}`;
      const response = await client.responses.create({
        model: 'gpt-4o-mini',
        input: `Find news about ${marker}`,
        tools: [{ type: 'web_search' }],
      });
      const stream = client.responses.stream({
        model: 'claude-haiku-4-5',
        input: `Again ${marker} [sim:mid-stream-error]`,
      });
      for await (const event of stream) assert.ok(event);
      const searchCall = response.output.find((item) => item.type === 'web_search_call');
      assert.ok(searchCall?.type === 'web_search_call' && searchCall.action.type === 'search');
      assert.ok(searchCall.action.query?.includes(marker), 'the marker went into the search query');
      let stored = '';
      for (const table of await db().introspection.getTables()) {
        stored += JSON.stringify(
          await db()
            .selectFrom(table.name as never)
            .selectAll()
            .execute(),
        );
      }
      assert.ok(stored.includes('"responses"'), 'the dump holds the usage rows');
      assert.ok(!stored.includes(marker), 'the prompt and query are not stored');
      assert.ok(!stored.includes(response.output_text), 'the answer is not stored');
      const logs = logLines.join('');
      assert.ok(logs.includes('"msg":"request"'), 'logs were captured');
      assert.ok(!logs.includes(marker) && !logs.includes(response.output_text), 'no text in the logs');
    });
  });
}
