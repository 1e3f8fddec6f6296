import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUserById } from '../../src/db/users.ts';
import { operatorApiOperations } from '../../src/http/api/operator-api-operations.ts';
import { callApi, readError, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

for (const databaseKind of databaseKinds) {
  describe(`operator API on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let emailCount = 0;
    const newEmail = () => `customer${++emailCount}-${databaseKind}@example.com`;
    const db = () => gateway.gateway.database.db;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      await gateway.createUserWithKey({ role: 'admin', email: `operator-${databaseKind}@example.com` });
      operator = await signIn(gateway.url, { email: `operator-${databaseKind}@example.com` });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const newCustomer = async () => {
      const email = newEmail();
      const created = await gateway.createUserWithKey({ email });
      return { ...created, email, session: await signIn(gateway.url, { email }) };
    };
    const ledgerSize = async () =>
      Number(
        (
          await db()
            .selectFrom('ledger_entries')
            .select((s) => s.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const assertBalanceIsSumOfEntries = async (userId: string) => {
      const user = await findUserById(db(), userId);
      assert.equal(user?.balance_micros, await sumLedgerAccount(db(), userLedgerAccount(userId)));
    };

    test('every operator endpoint refuses a signed-in customer with 403 and an anonymous caller with 401', async () => {
      const { session } = await newCustomer();
      assert.ok(operatorApiOperations.length >= 10);
      for (const operation of operatorApiOperations) {
        const path = operation.path.replace('{id}', 'x').replace('{modelId}', 'y');
        const method = operation.method.toUpperCase();
        const body = operation.method === 'get' || operation.method === 'delete' ? undefined : {};
        const asCustomer = await callApi(gateway.url, path, { method, session, ...(body ? { body } : {}) });
        assert.equal(asCustomer.status, 403, `${method} ${path}: ${asCustomer.text}`);
        assert.equal(readError(asCustomer).code, 'operator_only', `${method} ${path}`);
        const anonymous = await callApi(gateway.url, path, { method, ...(body ? { body } : {}) });
        assert.equal(anonymous.status, 401, `${method} ${path}: ${anonymous.text}`);
      }
    });

    test('the OpenAPI document describes every operator and subscription endpoint', async () => {
      const document = (await (await fetch(`${gateway.url}/api/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { security: unknown[] }>>;
      };
      for (const operation of operatorApiOperations) {
        const described = document.paths[operation.path]?.[operation.method];
        assert.ok(described, `${operation.method} ${operation.path}`);
        assert.deepEqual(described.security, [{ sessionCookie: [], csrfToken: [] }]);
      }
      for (const path of ['/api/subscription', '/api/subscription/auto-renew']) assert.ok(document.paths[path], path);
    });

    test('an operator finds a user by part of the e-mail, blocks it (its key is refused) and unblocks it', async () => {
      const customer = await newCustomer();
      const search = await callApi(
        gateway.url,
        `/api/operator/users?email=${encodeURIComponent(customer.email.slice(0, 12).toUpperCase())}`,
        {
          session: operator,
        },
      );
      assert.equal(search.status, 200, search.text);
      const found = (search.json as { data: Array<{ id: string; email: string; active_key_count: number }> }).data;
      assert.deepEqual(
        found.map((user) => user.email),
        [customer.email],
      );
      assert.equal(found[0]?.active_key_count, 1);
      const keyInfo = () => fetch(`${gateway.url}/v1/key`, { headers: { authorization: `Bearer ${customer.key}` } });
      assert.equal((await keyInfo()).status, 200);

      const block = await callApi(gateway.url, `/api/operator/users/${customer.userId}/status`, {
        session: operator,
        body: { status: 'blocked' },
      });
      assert.equal(block.status, 200, block.text);
      assert.equal((block.json as { status: string }).status, 'blocked');
      const refused = await keyInfo();
      assert.equal(refused.status, 403);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'account_blocked');
      const sessionRefused = await callApi(gateway.url, '/api/me', { session: customer.session });
      assert.equal(sessionRefused.status, 403);

      const unblock = await callApi(gateway.url, `/api/operator/users/${customer.userId}/status`, {
        session: operator,
        body: { status: 'active' },
      });
      assert.equal(unblock.status, 200, unblock.text);
      assert.equal((await keyInfo()).status, 200);
      const selfBlock = await callApi(gateway.url, `/api/operator/users/${operator.me.id}/status`, {
        session: operator,
        body: { status: 'blocked' },
      });
      assert.equal(selfBlock.status, 400);
    });

    test('a balance adjustment posts one ledger transaction per idempotency key, in both directions', async () => {
      const customer = await newCustomer();
      const before = (await findUserById(db(), customer.userId))?.balance_micros ?? 0;
      const adjust = (body: unknown) =>
        callApi(gateway.url, `/api/operator/users/${customer.userId}/adjustments`, { session: operator, body });
      const credit = {
        direction: 'credit',
        amount_micros: 2_500_000,
        reason: 'goodwill',
        idempotency_key: `gw-${databaseKind}`,
      };
      const first = await adjust(credit);
      assert.equal(first.status, 201, first.text);
      const again = await adjust(credit);
      assert.equal(again.status, 200, again.text);
      const firstBody = first.json as {
        transaction_id: string;
        is_new: boolean;
        balance_usd: number;
        amount_usd: number;
      };
      const againBody = again.json as typeof firstBody;
      assert.equal(firstBody.is_new, true);
      assert.equal(againBody.is_new, false);
      assert.equal(againBody.transaction_id, firstBody.transaction_id);
      assert.equal(firstBody.amount_usd, 2.5);
      const posted = await db()
        .selectFrom('ledger_transactions')
        .selectAll()
        .where('idempotency_key', '=', `adjustment:gw-${databaseKind}`)
        .execute();
      assert.equal(posted.length, 1);
      assert.equal(posted[0]?.reason, 'goodwill');
      assert.equal((await findUserById(db(), customer.userId))?.balance_micros, before + 2_500_000);

      const reused = await adjust({ ...credit, amount_micros: 1 });
      assert.equal(reused.status, 409);
      assert.equal(readError(reused).code, 'idempotency_key_reused');

      const debit = await adjust({ direction: 'debit', amount_micros: 500_000, reason: 'correction' });
      assert.equal(debit.status, 201, debit.text);
      assert.equal((debit.json as { amount_usd: number }).amount_usd, -0.5);
      assert.equal((await findUserById(db(), customer.userId))?.balance_micros, before + 2_000_000);
      await assertBalanceIsSumOfEntries(customer.userId);
    });

    test('a negative, fractional, non-numeric or oversized amount is a 400 and leaves the ledger unchanged', async () => {
      const customer = await newCustomer();
      const entriesBefore = await ledgerSize();
      const balanceBefore = (await findUserById(db(), customer.userId))?.balance_micros;
      const bad: Array<[unknown, string]> = [
        [{ direction: 'credit', amount_micros: -5, reason: 'x' }, 'amount_micros'],
        [{ direction: 'credit', amount_micros: 'abc', reason: 'x' }, 'amount_micros'],
        [{ direction: 'credit', amount_micros: '100', reason: 'x' }, 'amount_micros'],
        [{ direction: 'credit', amount_micros: 1.5, reason: 'x' }, 'amount_micros'],
        [{ direction: 'credit', amount_micros: 0, reason: 'x' }, 'amount_micros'],
        [{ direction: 'credit', amount_micros: 1e300, reason: 'x' }, 'amount_micros'],
        [{ direction: 'credit', reason: 'x' }, 'amount_micros'],
        [{ direction: 'credit', amount_micros: 10, reason: '  ' }, 'reason'],
        [{ direction: 'sideways', amount_micros: 10, reason: 'x' }, 'direction'],
        [{ direction: 'credit', amount_micros: 10, reason: 'x', idempotency_key: 'has spaces' }, 'idempotency_key'],
        [{ direction: 'debit', amount_micros: (balanceBefore ?? 0) + 1, reason: 'too much' }, 'amount_micros'],
      ];
      for (const [body, param] of bad) {
        const response = await callApi(gateway.url, `/api/operator/users/${customer.userId}/adjustments`, {
          session: operator,
          body,
        });
        assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
        assert.equal(readError(response).param, param, JSON.stringify(body));
      }
      const garbage = await callApi(gateway.url, `/api/operator/users/${customer.userId}/adjustments`, {
        session: operator,
        rawBody: '{"direction": "credit", "amount_micros": 12',
      });
      assert.equal(garbage.status, 400);
      assert.equal(await ledgerSize(), entriesBefore);
      assert.equal((await findUserById(db(), customer.userId))?.balance_micros, balanceBefore);
    });

    test('a price change shows at once in /api/models and /v1/models and is kept in the history', async () => {
      const customer = await newCustomer();
      const models = (await (await fetch(`${gateway.url}/api/models`)).json()) as {
        data: Array<{ id: string; kind: string; input_usd_per_million: number; output_usd_per_million: number }>;
      };
      const model = models.data.find((candidate) => candidate.kind === 'text');
      assert.ok(model);
      const newInput = model.input_usd_per_million + 0.123456;
      const change = await callApi(gateway.url, `/api/operator/models/${model.id}/price`, {
        session: operator,
        body: { input_usd_per_million: newInput.toFixed(6), output_usd_per_million: '7.5', reason: 'test change' },
      });
      assert.equal(change.status, 200, change.text);
      const publicList = (await (await fetch(`${gateway.url}/api/models`)).json()) as typeof models;
      const shown = publicList.data.find((candidate) => candidate.id === model.id);
      assert.equal(shown?.input_usd_per_million, Number(newInput.toFixed(6)));
      assert.equal(shown?.output_usd_per_million, 7.5);
      const v1 = (await (
        await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${customer.key}` } })
      ).json()) as {
        data: Array<{ id: string; pricing: { input_usd_per_million: number; output_usd_per_million: number } }>;
      };
      const v1Model = v1.data.find((candidate) => candidate.id === model.id);
      assert.equal(v1Model?.pricing.output_usd_per_million, 7.5);
      const history = await callApi(gateway.url, `/api/operator/models/${model.id}/prices`, { session: operator });
      const latest = (history.json as { data: Array<{ reason: string; output_usd_per_million: number }> }).data[0];
      assert.equal(latest?.reason, 'test change');
      assert.equal(latest?.output_usd_per_million, 7.5);
      const bad = await callApi(gateway.url, `/api/operator/models/${model.id}/price`, {
        session: operator,
        body: { input_usd_per_million: '-1' },
      });
      assert.equal(bad.status, 400);
      assert.equal(readError(bad).param, 'input_usd_per_million');
      const unknown = await callApi(gateway.url, '/api/operator/models/no-such-model/price', {
        session: operator,
        body: { input_usd_per_million: '1' },
      });
      assert.equal(unknown.status, 404);
    });

    test('contract terms are kept per account and a bad percent is refused', async () => {
      const customer = await newCustomer();
      const set = await callApi(gateway.url, `/api/operator/users/${customer.userId}/terms`, {
        session: operator,
        // The price test above left one model just above its route cost, so this discount must be confirmed
        // (the refusal itself is tested in catalogue-models.test.ts).
        body: { contract_discount_percent: 12.5, requests_per_minute: 30, confirm_below_cost: true },
      });
      assert.equal(set.status, 200, set.text);
      const detail = set.json as { contract_discount_percent: number; requests_per_minute: number };
      assert.equal(detail.contract_discount_percent, 12.5);
      assert.equal(detail.requests_per_minute, 30);
      const subscription = await callApi(gateway.url, '/api/subscription', { session: customer.session });
      assert.equal((subscription.json as { discount_percent: number }).discount_percent, 12.5);
      for (const percent of [-1, 100.5, 12.345, 'ten']) {
        const bad = await callApi(gateway.url, `/api/operator/users/${customer.userId}/terms`, {
          session: operator,
          body: { contract_discount_percent: percent, requests_per_minute: null },
        });
        assert.equal(bad.status, 400, String(percent));
        assert.equal(readError(bad).param, 'contract_discount_percent');
      }
    });
  });
}
