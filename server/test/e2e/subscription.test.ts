import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUserById } from '../../src/db/users.ts';
import { callApi, readError, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

type Plan = { id: string; price_usd: number; discount_percent: number };
type AccountSubscription = {
  subscription: {
    plan_id: string;
    is_active: boolean;
    is_auto_renewing: boolean;
    renewal_failure: string | null;
    expires_at: string;
  } | null;
  discount_percent: number;
  is_new?: boolean;
  balance_usd?: number;
};

/**
 * The cost of token charges less a discount in basis points, rounded up once (docs/billing.md, "The one rounding
 * rule"): never the discounted rates rounded first and the cost rounded again.
 */
const discountedCost = (charges: Array<[tokens: number, rateMicros: number]>, basisPoints: number) =>
  Math.ceil(
    (charges.reduce((sum, [tokens, rateMicros]) => sum + tokens * rateMicros, 0) * (10_000 - basisPoints)) / 1e10,
  );

for (const databaseKind of databaseKinds) {
  describe(`subscriptions on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let plan: Plan;
    let emailCount = 0;
    const db = () => gateway.gateway.database.db;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      const email = `plans-operator-${databaseKind}@example.com`;
      await gateway.createUserWithKey({ role: 'admin', email });
      operator = await signIn(gateway.url, { email });
      const created = await callApi(gateway.url, '/api/operator/plans', {
        session: operator,
        body: { name: 'Pro', price_usd: '0.5', discount_percent: 20 },
      });
      assert.equal(created.status, 201, created.text);
      plan = created.json as Plan;
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const newCustomer = async (balanceMicros: number) => {
      const email = `subscriber${++emailCount}-${databaseKind}@example.com`;
      const created = await gateway.createUserWithKey({ email, balanceMicros });
      return { ...created, session: await signIn(gateway.url, { email }) };
    };
    const balanceOf = async (userId: string) => (await findUserById(db(), userId))?.balance_micros ?? 0;
    const subscriptionPayments = (userId: string) =>
      db()
        .selectFrom('ledger_entries')
        .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
        .select(['ledger_entries.amount_micros', 'ledger_transactions.idempotency_key'])
        .where('ledger_entries.account', '=', userLedgerAccount(userId))
        .where('ledger_transactions.kind', '=', 'subscription')
        .execute();
    const buy = (session: BrowserSession, body: unknown) =>
      callApi(gateway.url, '/api/subscription', { session, body });

    test('a plan with more than 40% off, a negative price or no name is refused', async () => {
      for (const body of [
        { name: 'Too good', price_usd: '1', discount_percent: 41 },
        { name: 'Negative', price_usd: '-1', discount_percent: 10 },
        { name: '', price_usd: '1', discount_percent: 10 },
      ]) {
        const response = await callApi(gateway.url, '/api/operator/plans', { session: operator, body });
        assert.equal(response.status, 400, JSON.stringify(body));
      }
    });

    test('buying a plan debits the balance once per purchase id and the discount shows on the account', async () => {
      const customer = await newCustomer(2_000_000);
      const listed = await callApi(gateway.url, '/api/subscription', { session: customer.session });
      assert.equal(listed.status, 200, listed.text);
      assert.ok((listed.json as { plans: Plan[] }).plans.some((candidate) => candidate.id === plan.id));
      const purchase = { plan_id: plan.id, purchase_id: `purchase-${databaseKind}-1`, auto_renew: false };
      const [first, second] = await Promise.all([buy(customer.session, purchase), buy(customer.session, purchase)]);
      const statuses = [first.status, second.status].sort();
      assert.deepEqual(statuses, [200, 201], `${first.text} ${second.text}`);
      const again = await buy(customer.session, purchase);
      assert.equal(again.status, 200);
      const body = again.json as AccountSubscription;
      assert.equal(body.is_new, false);
      assert.equal(body.discount_percent, 20);
      assert.equal(body.subscription?.plan_id, plan.id);
      assert.equal(body.subscription?.is_active, true);
      assert.equal(await balanceOf(customer.userId), 1_500_000);
      assert.equal((await subscriptionPayments(customer.userId)).length, 1);
      assert.equal(await balanceOf(customer.userId), await sumLedgerAccount(db(), userLedgerAccount(customer.userId)));
    });

    test('a balance below the price is a 402 and changes nothing', async () => {
      const customer = await newCustomer(400_000);
      const response = await buy(customer.session, { plan_id: plan.id, purchase_id: `purchase-${databaseKind}-poor` });
      assert.equal(response.status, 402, response.text);
      assert.equal(readError(response).code, 'insufficient_credits');
      assert.equal(await balanceOf(customer.userId), 400_000);
      assert.equal((await subscriptionPayments(customer.userId)).length, 0);
      const state = await callApi(gateway.url, '/api/subscription', { session: customer.session });
      assert.equal((state.json as AccountSubscription).subscription, null);
    });

    test('the discount is in the cost of a chat call, and the ledger debits exactly that cost', async () => {
      const customer = await newCustomer(3_000_000);
      const bought = await buy(customer.session, { plan_id: plan.id, purchase_id: `purchase-${databaseKind}-chat` });
      assert.equal(bought.status, 201, bought.text);
      const models = (await (await fetch(`${gateway.url}/api/models`)).json()) as {
        data: Array<{
          id: string;
          input_usd_per_million: number;
          output_usd_per_million: number;
          cached_input_usd_per_million: number | null;
        }>;
      };
      const model = models.data.find((candidate) => candidate.id === 'gpt-4o');
      assert.ok(model, 'the sandbox serves gpt-4o');
      const client = new OpenAI({ apiKey: customer.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const balanceBefore = await balanceOf(customer.userId);
      const completion = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Say something short.' }],
      });
      const usage = completion.usage;
      assert.ok(usage && usage.completion_tokens > 0);
      const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
      const micros = (usd: number) => Math.round(usd * 1_000_000);
      const expectedMicros = discountedCost(
        [
          [usage.prompt_tokens - cached, micros(model.input_usd_per_million)],
          [cached, micros(model.cached_input_usd_per_million ?? model.input_usd_per_million)],
          [usage.completion_tokens, micros(model.output_usd_per_million)],
        ],
        2_000,
      );
      const fullPriceMicros = Math.ceil(
        ((usage.prompt_tokens - cached) * micros(model.input_usd_per_million) +
          cached * micros(model.cached_input_usd_per_million ?? model.input_usd_per_million) +
          usage.completion_tokens * micros(model.output_usd_per_million)) /
          1_000_000,
      );
      assert.ok(expectedMicros < fullPriceMicros, 'the discount lowers the cost');
      assert.equal((usage as unknown as { cost: number }).cost, expectedMicros / 1_000_000);
      assert.equal(balanceBefore - (await balanceOf(customer.userId)), expectedMicros);
    });

    test('renewal from the balance pays once per period, and a short balance switches auto-renewal off', async () => {
      const customer = await newCustomer(2_000_000);
      const bought = await buy(customer.session, {
        plan_id: plan.id,
        purchase_id: `purchase-${databaseKind}-renew`,
        auto_renew: true,
      });
      assert.equal(bought.status, 201, bought.text);
      const endPeriod = () =>
        db()
          .updateTable('subscriptions')
          .set({ expires_at: Date.now() - 1000 })
          .where('user_id', '=', customer.userId)
          .execute();
      await endPeriod();
      const renew = () => callApi(gateway.url, '/api/operator/subscriptions/renew', { session: operator, body: {} });
      const runs = await Promise.all([renew(), renew(), renew()]);
      for (const run of runs) assert.equal(run.status, 200, run.text);
      assert.equal((await subscriptionPayments(customer.userId)).length, 2);
      assert.equal(await balanceOf(customer.userId), 1_000_000);
      const renewed = (await callApi(gateway.url, '/api/subscription', { session: customer.session }))
        .json as AccountSubscription;
      assert.equal(renewed.subscription?.is_active, true);
      assert.ok(Date.parse(renewed.subscription?.expires_at ?? '') > Date.now() + 29 * 86_400_000);

      const spend = await callApi(gateway.url, `/api/operator/users/${customer.userId}/adjustments`, {
        session: operator,
        body: { direction: 'debit', amount_micros: 700_000, reason: 'leave less than a renewal' },
      });
      assert.equal(spend.status, 201, spend.text);
      await endPeriod();
      await renew();
      const lapsed = (await callApi(gateway.url, '/api/subscription', { session: customer.session }))
        .json as AccountSubscription;
      assert.equal(lapsed.subscription?.is_active, false);
      assert.equal(lapsed.subscription?.is_auto_renewing, false);
      assert.match(lapsed.subscription?.renewal_failure ?? '', /balance/);
      assert.equal((await subscriptionPayments(customer.userId)).length, 2);
      assert.equal(await balanceOf(customer.userId), 300_000);
      assert.equal(await balanceOf(customer.userId), await sumLedgerAccount(db(), userLedgerAccount(customer.userId)));
    });
  });
}
