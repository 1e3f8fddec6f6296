import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Balance } from '../../../contract/balance.ts';
import type { DailyUsageList, UsagePage } from '../../../contract/usage.ts';
import { postLedgerTransaction, userLedgerAccount } from '../../src/db/ledger.ts';
import { recordCharge } from '../../src/db/usage-records.ts';
import { callApi, readError, signUp, type BrowserSession } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { buildUsageRecord, insertUsageRecords } from '../support/usage-record-builder.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

const day = (date: number, hour: number) => Date.UTC(2025, 0, date, hour);

for (const databaseKind of databaseKinds) {
  describe(`account API: usage, balance and credits on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let url: string;
    let session: BrowserSession;
    let keyIds: { work: string; home: string };
    let keys: { work: string; home: string };

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      url = gateway.url;
      session = await signUp(url, { email: `usage-${databaseKind}@example.com` });
      const create = async (name: string) =>
        (await callApi(url, '/api/keys', { body: { name, spend_cap_usd: '2.5', requests_per_minute: 42 }, session }))
          .json as { id: string; key: string };
      const work = await create('work, "main" =cmd');
      const home = await create('home');
      keyIds = { work: work.id, home: home.id };
      keys = { work: work.key, home: home.key };
      const userId = session.me.id;
      const other = await gateway.createUserWithKey();
      await insertUsageRecords(gateway.gateway.database.db, [
        buildUsageRecord({ user_id: userId, api_key_id: work.id, created_at: day(10, 9), cost_micros: 1_000 }),
        buildUsageRecord({
          user_id: userId,
          api_key_id: work.id,
          created_at: day(10, 10),
          model_id: 'claude-sonnet-4-5',
        }),
        buildUsageRecord({ user_id: userId, api_key_id: home.id, created_at: day(11, 8), output_tokens: 7 }),
        buildUsageRecord({ user_id: userId, api_key_id: home.id, created_at: day(12, 23), status: 'interrupted' }),
        buildUsageRecord({ user_id: userId, api_key_id: work.id, created_at: day(12, 23), cost_micros: 2 }),
        buildUsageRecord({ user_id: other.userId, created_at: day(11, 9) }),
      ]);
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const getUsage = async (query: string) => {
      const response = await callApi(url, `/api/usage${query}`, { session });
      assert.equal(response.status, 200, response.text);
      return response.json as UsagePage;
    };

    test('lists the account’s calls newest first, with counts, times and cost but no text', async () => {
      const page = await getUsage('');
      assert.equal(page.data.length, 5, 'another account’s calls are not listed');
      assert.equal(page.next_cursor, null);
      const times = page.data.map((record) => Date.parse(record.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      const first = page.data.find((record) => record.cost_usd === 0.001);
      assert.deepEqual(Object.keys(first ?? {}).sort(), [
        'cached_tokens',
        'cost_usd',
        'created_at',
        'endpoint',
        'error_code',
        'image_count',
        'input_tokens',
        'key_id',
        'key_name',
        'latency_ms',
        'model',
        'output_tokens',
        'provider',
        'reasoning_tokens',
        'request_id',
        'status',
        'time_to_first_token_ms',
      ]);
      assert.equal(first?.key_name, 'work, "main" =cmd');
      assert.equal(first?.input_tokens, 100);
      assert.equal(first?.latency_ms, 800);
      assert.equal(first?.time_to_first_token_ms, 120);
    });

    test('pages with a cursor visit every row once; filters narrow by model, key and UTC days', async () => {
      const seen: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page: UsagePage = await getUsage(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.ok(page.data.length <= 2);
        seen.push(...page.data.map((record) => record.request_id));
        cursor = page.next_cursor;
      }
      assert.equal(seen.length, 5);
      assert.equal(new Set(seen).size, 5);
      assert.equal((await getUsage('?model=claude-sonnet-4-5')).data.length, 1);
      assert.equal((await getUsage(`?key_id=${keyIds.home}`)).data.length, 2);
      assert.equal(
        (await getUsage('?from=2025-01-11&to=2025-01-11')).data.length,
        1,
        'a bare `to` date includes its day',
      );
      assert.equal((await getUsage('?from=2025-01-12T00:00:00Z')).data.length, 2);
      assert.equal((await getUsage('?to=2025-01-10T10:00:00Z')).data.length, 1, '`to` is exclusive');
    });

    test('bad filters are 400s naming the parameter', async () => {
      for (const [query, param] of [
        ['?from=yesterday', 'from'],
        ['?limit=0', 'limit'],
        ['?limit=abc', 'limit'],
        ['?limit=501', 'limit'],
        ['?cursor=bm9wZQ', 'cursor'],
        ['?from=2025-01-12&to=2025-01-10', 'to'],
      ] as const) {
        const response = await callApi(url, `/api/usage${query}`, { session });
        assert.equal(response.status, 400, `${query}: ${response.text}`);
        assert.equal(readError(response).param, param);
      }
      assert.equal((await callApi(url, '/api/usage')).status, 401);
    });

    test('daily totals group by UTC day and model', async () => {
      const response = await callApi(url, '/api/usage/daily?from=2025-01-01&to=2025-01-31', { session });
      assert.equal(response.status, 200, response.text);
      const { data } = response.json as DailyUsageList;
      assert.deepEqual(
        data.map((row) => [row.date, row.model, row.requests, row.output_tokens, row.cost_usd]),
        [
          ['2025-01-10', 'claude-sonnet-4-5', 1, 20, 0.00036],
          ['2025-01-10', 'gpt-4o', 1, 20, 0.001],
          ['2025-01-11', 'gpt-4o', 1, 7, 0.00036],
          ['2025-01-12', 'gpt-4o', 2, 40, 0.000362],
        ],
      );
    });

    test('the CSV export has a header row, CRLF records, RFC 4180 quoting and exact costs', async () => {
      const response = await callApi(url, `/api/usage.csv?key_id=${keyIds.work}`, { session });
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename="usage.csv"/);
      const lines = response.text.split('\r\n');
      assert.equal(lines.at(-1), '', 'ends with CRLF');
      assert.equal(lines[0]?.split(',')[0], 'time');
      assert.equal(lines.length, 1 + 3 + 1);
      assert.ok(lines[1]?.includes(',"work, ""main"" =cmd",'), lines[1]);
      assert.ok(lines.some((line) => line.endsWith(',0.001000')));
    });

    test('the balance shows held and available credit and the ledger entries', async () => {
      const db = gateway.gateway.database.db;
      await recordCharge(db, {
        ledger: {
          id: 'ltx_usage_test',
          idempotencyKey: 'usage:req_charge_test',
          kind: 'usage',
          reason: 'chat.completions gpt-4o',
          createdAt: Date.now(),
          entries: [
            { account: userLedgerAccount(session.me.id), amountMicros: -250_000 },
            { account: 'system:revenue', amountMicros: 250_000 },
          ],
        },
        usage: buildUsageRecord({
          user_id: session.me.id,
          request_id: 'req_charge_test',
          api_key_id: keyIds.home,
          cost_micros: 250_000,
          created_at: Date.now(),
        }),
      });
      await postLedgerTransaction(db, {
        id: 'ltx_topup_test',
        idempotencyKey: 'top_up:test',
        kind: 'top_up',
        reason: 'top-up test',
        createdAt: Date.now() + 1,
        entries: [
          { account: userLedgerAccount(session.me.id), amountMicros: 5_000_000 },
          { account: 'system:clearing', amountMicros: -5_000_000 },
        ],
      });
      // The holds in memory learn of the top-up on the next cache poll (every 500 ms).
      let balance: Balance | undefined;
      for (const started = Date.now(); Date.now() - started < 1500; await sleep(50)) {
        const response = await callApi(url, '/api/balance', { session });
        assert.equal(response.status, 200, response.text);
        balance = response.json as Balance;
        if (balance.held_usd === 0) break;
      }
      assert.ok(balance);
      assert.equal(balance.balance_usd, 5.75);
      assert.equal(balance.held_usd, 0);
      assert.equal(balance.available_usd, 5.75);
      assert.deepEqual(
        balance.entries.map((entry) => [entry.kind, entry.amount_usd]),
        [
          ['top_up', 5],
          ['usage', -0.25],
          ['welcome', 1],
        ],
      );
      assert.equal((await callApi(url, '/api/balance')).status, 401);
    });

    test('GET /v1/credits and /v1/key answer in OpenRouter’s shape for the calling key', async () => {
      const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
      const credits = await fetch(`${url}/v1/credits`, auth(keys.home));
      assert.equal(credits.status, 200);
      assert.deepEqual(await credits.json(), { data: { total_credits: 6, total_usage: 0.25 } });
      for (const path of ['/v1/key', '/v1/auth/key']) {
        const response = await fetch(`${url}${path}`, auth(keys.home));
        assert.equal(response.status, 200);
        assert.deepEqual(await response.json(), {
          data: {
            label: 'home',
            limit: 2.5,
            usage: 0.25,
            limit_remaining: 2.25,
            is_free_tier: false,
            expires_at: null,
            rate_limit: { requests: 42, interval: '1m' },
          },
        });
      }
      const unauthenticated = await fetch(`${url}/v1/credits`);
      assert.equal(unauthenticated.status, 401);
      assert.equal((await fetch(`${url}/v1/key`, auth(`sk-${'C'.repeat(43)}`))).status, 401);
    });

    test('the OpenAPI document lists every account endpoint', async () => {
      const document = (await (await fetch(`${url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
      for (const path of [
        '/api/auth/register',
        '/api/auth/login',
        '/api/auth/logout',
        '/api/me',
        '/api/me/password',
        '/api/keys',
        '/api/keys/{id}',
        '/api/usage',
        '/api/usage/daily',
        '/api/usage.csv',
        '/api/balance',
        '/v1/credits',
        '/v1/key',
      ]) {
        assert.ok(document.paths[path], path);
      }
    });
  });
}
