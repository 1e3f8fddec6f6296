import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { createUser } from '../accounts/create-user.ts';
import { setAlertSettings } from '../accounts/alert-settings.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { postLedgerTransaction, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { cryptoIds } from '../lib/ids.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import { SearchEngineError } from '../search/search-engine-error.ts';
import { notifyLowBalances } from './notify-low-balances.ts';
import { createOperatorAlerts, operatorAlertIntervalMs } from './operator-alerts.ts';
import { remindSubscriptionRenewals, renewalReminderLeadMs } from './remind-subscription-renewals.ts';
import { watchRouteCircuits } from './watch-route-circuits.ts';
import { searchFailuresBeforeAlert, watchSearchFailures } from './watch-search-failures.ts';

/** A mailer that keeps what is posted, as the outbox would. */
function createMailRecorder() {
  const posted: MailMessage[] = [];
  return { posted, mailer: { post: (message: MailMessage) => void posted.push(message) } };
}

for (const kind of databaseKinds) {
  describe(`alert passes on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let nowMs = 1_800_000_000_000;
    const clock = { nowMs: () => nowMs };
    const recorder = createMailRecorder();
    const passDeps = () => ({ db: handle.db, clock, mailer: recorder.mailer, publicBaseUrl: 'https://gw.example' });
    const move = (userId: string, amountMicros: number) =>
      postLedgerTransaction(handle.db, {
        id: cryptoIds.newId('ltx_'),
        idempotencyKey: cryptoIds.newId('test:'),
        kind: 'adjustment',
        reason: 'test',
        createdAt: nowMs,
        entries: [
          { account: userLedgerAccount(userId), amountMicros },
          { account: 'system:test', amountMicros: -amountMicros },
        ],
      });

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    test('low balance: one mail when it falls below the threshold, again only after it was back above', async () => {
      const deps = { db: handle.db, clock, ids: cryptoIds };
      const user = await createUser(deps, {
        email: `low-${kind}@example.com`,
        password: 'x'.repeat(12),
        role: 'user',
        welcomeBalanceMicros: 5_000_000,
      });
      await createUser(deps, {
        email: `quiet-${kind}@example.com`,
        password: 'x'.repeat(12),
        role: 'user',
        welcomeBalanceMicros: 0,
      });
      assert.deepEqual(await setAlertSettings(deps, { userId: user.id, settings: { low_balance_usd: 2.5 } }), {
        low_balance_usd: 2.5,
      });
      assert.equal(
        await notifyLowBalances(passDeps()),
        0,
        'above the threshold; an account without one is never mailed',
      );
      await move(user.id, -3_000_000);
      assert.equal(await notifyLowBalances(passDeps()), 1);
      assert.equal(await notifyLowBalances(passDeps()), 0, 'told once');
      const [mail] = recorder.posted.splice(0);
      assert.equal(mail?.kind, 'balance-low');
      assert.equal(mail?.to, user.email);
      assert.match(mail?.text ?? '', /2\.000000 USD, below the 2\.500000 USD/);
      await move(user.id, 1_000_000);
      assert.equal(await notifyLowBalances(passDeps()), 0, 'back above: re-armed, nothing sent');
      await move(user.id, -1_000_000);
      assert.equal(await notifyLowBalances(passDeps()), 1, 'below again: told again');
      recorder.posted.splice(0);
    });

    test('renewal reminder: once per period, three days ahead, only for auto-renewing subscriptions', async () => {
      const deps = { db: handle.db, clock, ids: cryptoIds };
      const user = await createUser(deps, {
        email: `renew-${kind}@example.com`,
        password: 'x'.repeat(12),
        role: 'user',
        welcomeBalanceMicros: 0,
      });
      await handle.db
        .insertInto('subscription_plans')
        .values({
          id: 'plan_pro',
          name: 'Pro',
          price_micros: 9_000_000,
          discount_basis_points: 2000,
          is_active: 1,
          created_at: 1,
          updated_at: 1,
        })
        .execute();
      const expiresAt = nowMs + renewalReminderLeadMs + 60_000;
      await handle.db
        .insertInto('subscriptions')
        .values({
          user_id: user.id,
          plan_id: 'plan_pro',
          discount_basis_points: 2000,
          period_started_at: nowMs,
          expires_at: expiresAt,
          is_auto_renewing: 1,
          renewal_failure: null,
          updated_at: nowMs,
        })
        .execute();
      assert.equal(await remindSubscriptionRenewals(passDeps()), 0, 'more than three days ahead');
      nowMs += 120_000;
      const both = await Promise.all([remindSubscriptionRenewals(passDeps()), remindSubscriptionRenewals(passDeps())]);
      assert.equal(both[0] + both[1], 1, 'two nodes at once: one mail');
      const [mail] = recorder.posted.splice(0);
      assert.equal(mail?.kind, 'subscription-renewal');
      assert.match(mail?.text ?? '', /"Pro" subscription renews on .* for 9\.000000 USD/);
      await handle.db
        .updateTable('subscriptions')
        .set({ expires_at: expiresAt + 30 * 86_400_000 })
        .execute();
      nowMs += 30 * 86_400_000;
      assert.equal(await remindSubscriptionRenewals(passDeps()), 1, 'the next period has its own reminder');
      await handle.db.updateTable('subscriptions').set({ is_auto_renewing: 0 }).execute();
      nowMs += 30 * 86_400_000;
      await handle.db
        .updateTable('subscriptions')
        .set({ expires_at: nowMs + 60_000 })
        .execute();
      assert.equal(await remindSubscriptionRenewals(passDeps()), 0, 'no renewal, no reminder');
      recorder.posted.splice(0);
    });

    test('operator alerts go to every active operator, once an hour per subject', async () => {
      const deps = { db: handle.db, clock, ids: cryptoIds };
      await createUser(deps, {
        email: `op-${kind}@example.com`,
        password: 'x'.repeat(12),
        role: 'admin',
        welcomeBalanceMicros: 0,
      });
      const errors: unknown[] = [];
      const alerts = createOperatorAlerts({ ...passDeps(), onError: (error) => errors.push(error) });
      let breakerState: 'closed' | 'open' | 'half_open' = 'closed';
      const circuits = watchRouteCircuits({
        routeTable: { allRoutes: () => [{ id: 'route_a', modelId: 'gpt-4o' }] as never },
        routing: { viewOf: () => ({ breakerState }) as never },
        alerts,
        consoleUrl: 'https://gw.example/operator',
      });
      const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
      circuits.check();
      breakerState = 'open';
      circuits.check();
      breakerState = 'half_open';
      circuits.check();
      await settle();
      assert.deepEqual(
        recorder.posted.map((mail) => [mail.to, mail.kind]),
        [[`op-${kind}@example.com`, 'route-circuit-open']],
      );
      breakerState = 'closed';
      circuits.check();
      breakerState = 'open';
      circuits.check();
      await settle();
      assert.equal(recorder.posted.length, 1, 'reopening within the hour: no second mail');
      nowMs += operatorAlertIntervalMs;
      breakerState = 'closed';
      circuits.check();
      breakerState = 'open';
      circuits.check();
      await settle();
      assert.equal(recorder.posted.length, 2);
      assert.deepEqual(errors, []);
      recorder.posted.splice(0);
    });

    test('search: an alert after consecutive failures; successes and cancelled searches do not count', async () => {
      const alerts = createOperatorAlerts({ ...passDeps(), onError: (error) => assert.fail(String(error)) });
      let isFailing = true;
      const engine: SearchEngine = {
        id: 'searxng',
        search: async () => {
          if (isFailing) throw new SearchEngineError({ kind: 'unavailable', engine: 'searxng', message: 'down' });
          return { results: [], engine: 'searxng', tookMs: 1 };
        },
      };
      const watched = watchSearchFailures(engine, { alerts, consoleUrl: 'https://gw.example/operator' });
      const search = (signal = new AbortController().signal) =>
        watched.search({ query: 'q', maxResults: 3, signal }).catch(() => undefined);
      for (let index = 1; index < searchFailuresBeforeAlert; index += 1) await search();
      isFailing = false;
      await search();
      isFailing = true;
      const cancelled = new AbortController();
      cancelled.abort();
      for (let index = 0; index < searchFailuresBeforeAlert; index += 1) await search(cancelled.signal);
      for (let index = 1; index < searchFailuresBeforeAlert; index += 1) await search();
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(recorder.posted.length, 0);
      await search();
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(
        recorder.posted.map((mail) => mail.kind),
        ['search-failing'],
      );
      assert.match(recorder.posted[0]?.text ?? '', /SearXNG search engine failed 5 times in a row/);
      recorder.posted.splice(0);
    });
  });
}
