import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import pino from 'pino';
import { startGateway } from '../../src/start-gateway.ts';
import { callApi, readError, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

type ChatAnswer = { usage: { prompt_tokens: number; completion_tokens: number; cost: number } };

for (const databaseKind of databaseKinds) {
  describe(`operator terms, reports and a second node on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let emailCount = 0;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      const email = `terms-operator-${databaseKind}@example.com`;
      await gateway.createUserWithKey({ role: 'admin', email });
      operator = await signIn(gateway.url, { email });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const newCustomer = async () => {
      const email = `terms${++emailCount}-${databaseKind}@example.com`;
      const created = await gateway.createUserWithKey({ email, balanceMicros: 5_000_000 });
      return { ...created, email, session: await signIn(gateway.url, { email }) };
    };
    const chat = (key: string, url = gateway.url) =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Count to three.' }] }),
      });

    test('an account price replaces the list price for that account only; the contract discount does not stack on it', async () => {
      const customer = await newCustomer();
      const other = await newCustomer();
      const terms = await callApi(gateway.url, `/api/operator/users/${customer.userId}/terms`, {
        session: operator,
        body: { contract_discount_percent: 50, requests_per_minute: null },
      });
      assert.equal(terms.status, 200, terms.text);
      const price = await callApi(gateway.url, `/api/operator/users/${customer.userId}/model-prices`, {
        session: operator,
        body: { model_id: 'gpt-4o', input_usd_per_million: '1', output_usd_per_million: '2.000001' },
      });
      assert.equal(price.status, 200, price.text);
      const detail = price.json as { model_prices: Array<{ model_id: string; output_usd_per_million: number }> };
      assert.deepEqual(
        detail.model_prices.map((row) => [row.model_id, row.output_usd_per_million]),
        [['gpt-4o', 2.000001]],
      );

      const own = (await (await chat(customer.key)).json()) as ChatAnswer;
      const expectedOwn = Math.ceil(
        (own.usage.prompt_tokens * 1_000_000 + own.usage.completion_tokens * 2_000_001) / 1e6,
      );
      assert.equal(own.usage.cost, expectedOwn / 1e6);

      const list = (await (await fetch(`${gateway.url}/api/models`)).json()) as {
        data: Array<{ id: string; input_usd_per_million: number; output_usd_per_million: number }>;
      };
      const model = list.data.find((candidate) => candidate.id === 'gpt-4o');
      assert.ok(model);
      const listed = (await (await chat(other.key)).json()) as ChatAnswer;
      const expectedListed = Math.ceil(
        (listed.usage.prompt_tokens * Math.round(model.input_usd_per_million * 1e6) +
          listed.usage.completion_tokens * Math.round(model.output_usd_per_million * 1e6)) /
          1e6,
      );
      assert.equal(listed.usage.cost, expectedListed / 1e6, 'another account pays the list price');

      const removed = await callApi(gateway.url, `/api/operator/users/${customer.userId}/model-prices/gpt-4o`, {
        session: operator,
        method: 'DELETE',
      });
      assert.equal(removed.status, 200, removed.text);
      const discounted = (await (await chat(customer.key)).json()) as ChatAnswer;
      // Half the price, rounded up once for the whole call (docs/billing.md, "The one rounding rule").
      const expectedDiscounted = Math.ceil(
        (discounted.usage.prompt_tokens * Math.round(model.input_usd_per_million * 1e6) +
          discounted.usage.completion_tokens * Math.round(model.output_usd_per_million * 1e6)) /
          2e6,
      );
      assert.equal(discounted.usage.cost, expectedDiscounted / 1e6, 'the contract discount applies again');
    });

    test('a custom account limit is one budget for all the account’s keys, with a 429 and Retry-After', async () => {
      const customer = await newCustomer();
      const set = await callApi(gateway.url, `/api/operator/users/${customer.userId}/terms`, {
        session: operator,
        body: { contract_discount_percent: 0, requests_per_minute: 2 },
      });
      assert.equal(set.status, 200, set.text);
      const second = await callApi(gateway.url, '/api/keys', { session: customer.session, body: { name: 'second' } });
      assert.equal(second.status, 201, second.text);
      const secondKey = (second.json as { key: string }).key;
      const first = await chat(customer.key);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-ratelimit-limit-requests'), '2');
      assert.equal((await chat(secondKey)).status, 200);
      const refused = await chat(customer.key);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'rate_limit_exceeded');
      assert.match(error.message, /account/);
    });

    test('usage across accounts and revenue per day and model agree with the ledger', async () => {
      const customer = await newCustomer();
      const answers: ChatAnswer[] = [];
      for (let index = 0; index < 2; index += 1) answers.push((await (await chat(customer.key)).json()) as ChatAnswer);
      const usage = await callApi(gateway.url, `/api/operator/usage?user_id=${customer.userId}&limit=1`, {
        session: operator,
      });
      assert.equal(usage.status, 200, usage.text);
      const page = usage.json as {
        data: Array<{ user_email: string; model: string; cost_usd: number }>;
        next_cursor: string;
      };
      assert.equal(page.data.length, 1);
      assert.equal(page.data[0]?.user_email, customer.email);
      assert.ok(page.next_cursor);
      const next = await callApi(
        gateway.url,
        `/api/operator/usage?user_id=${customer.userId}&limit=1&cursor=${encodeURIComponent(page.next_cursor)}`,
        { session: operator },
      );
      const nextPage = next.json as typeof page;
      assert.equal(nextPage.data.length, 1);
      assert.equal(nextPage.next_cursor, null);
      const costs = [...page.data, ...nextPage.data].map((row) => Math.round(row.cost_usd * 1e6)).sort();
      assert.deepEqual(costs, answers.map((answer) => Math.round(answer.usage.cost * 1e6)).sort());

      const revenue = await callApi(gateway.url, '/api/operator/revenue', { session: operator });
      assert.equal(revenue.status, 200, revenue.text);
      const report = revenue.json as {
        total_usd: number;
        days: Array<{ date: string; usage_usd: number; total_usd: number }>;
        models: Array<{ model: string; revenue_usd: number }>;
      };
      assert.equal(report.days.length, 30);
      const db = gateway.gateway.database.db;
      const income = await db
        .selectFrom('ledger_entries')
        .select(['account', 'amount_micros'])
        .where('account', 'in', ['system:revenue', 'system:subscriptions'])
        .execute();
      const incomeMicros = income.reduce((sum, entry) => sum + entry.amount_micros, 0);
      assert.equal(Math.round(report.total_usd * 1e6), incomeMicros);
      const today = new Date().toISOString().slice(0, 10);
      assert.equal(Math.round((report.days.find((day) => day.date === today)?.usage_usd ?? 0) * 1e6), incomeMicros);
      const records = await db.selectFrom('usage_records').select(['model_id', 'cost_micros']).execute();
      const gpt4oMicros = records
        .filter((row) => row.model_id === 'gpt-4o')
        .reduce((sum, row) => sum + row.cost_micros, 0);
      assert.equal(
        Math.round((report.models.find((row) => row.model === 'gpt-4o')?.revenue_usd ?? 0) * 1e6),
        gpt4oMicros,
      );

      const badRange = await callApi(gateway.url, '/api/operator/revenue?from=2000-01-01&to=2030-01-01', {
        session: operator,
      });
      assert.equal(badRange.status, 400);
      assert.equal(readError(badRange).param, 'from');
    });

    test('a block made on one node stops the key on another node at its next cache poll', async () => {
      const customer = await newCustomer();
      // Every node has a data directory of its own (its settlement journal); the database is shared.
      const secondDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-second-node-'));
      // Nodes share the master key that seals vendor credentials, as an operator copies it to each machine.
      copyFileSync(path.join(gateway.config.dataDir, 'master.key'), path.join(secondDataDir, 'master.key'));
      const secondNode = await startGateway({ ...gateway.config, dataDir: secondDataDir }, pino({ level: 'silent' }));
      try {
        const keyInfo = () =>
          fetch(`${secondNode.url}/v1/key`, { headers: { authorization: `Bearer ${customer.key}` } });
        assert.equal((await keyInfo()).status, 200, 'the key works on the second node');
        const block = await callApi(gateway.url, `/api/operator/users/${customer.userId}/status`, {
          session: operator,
          body: { status: 'blocked' },
        });
        assert.equal(block.status, 200, block.text);
        // Nodes poll the cache versions every 500 ms; wait for the second node to notice, without asserting a time.
        let status = (await keyInfo()).status;
        for (let attempt = 0; attempt < 100 && status !== 403; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          status = (await keyInfo()).status;
        }
        assert.equal(status, 403);
      } finally {
        await secondNode.close();
        rmSync(secondDataDir, { recursive: true, force: true });
      }
    });
  });
}
