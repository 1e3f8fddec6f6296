import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import {
  startStripeSimulator,
  type StripeSimulator,
} from '../../../simulators/payments/stripe/start-stripe-simulator.ts';
import { parseConfig } from '../../src/config/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { callApi, signUp } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { spawnGatewayProcess, waitForListening, type GatewayProcess } from '../support/gateway-process.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/test-databases.ts';

/**
 * `kill -9` of the gateway while it credits a payment notification (issue #14): the crediting transaction is held
 * at a database lock the test owns (PostgreSQL: the account's row, which the ledger write updates after the order
 * row is locked and the event recorded; SQLite, one writer: the write lock), the process is killed there, and
 * nothing of the half-done crediting survives. The Stripe simulator runs in the test's process, so, like Stripe,
 * it outlives the gateway and re-delivers the event to the restarted one, which credits it exactly once.
 */

const scriptPath = new URL('../support/run-gateway-with-stripe.ts', import.meta.url).pathname;
const stripeSecrets = { secretKey: 'sk_test_crash', webhookSecret: 'whsec_crash' };

async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A lock the test takes so the gateway's crediting stops inside its transaction; `release` rolls it back. */
type HeldLock = { release: () => Promise<void>; isGatewayWaiting: (gatewayUrl: string) => Promise<boolean> };

async function holdLock(database: TestDatabase, userId: string): Promise<HeldLock> {
  if (database.config.kind === 'postgres') {
    const client = new pg.Client({ connectionString: database.config.url });
    // A failed test drops the database under this connection; that ends it, which is no error of the test's.
    client.on('error', () => undefined);
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    return {
      // The gateway's connection waits for our row lock: the ledger write's foreign-key check or balance update.
      isGatewayWaiting: async () =>
        (
          await client.query(
            `SELECT 1 FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          )
        ).rowCount !== 0,
      release: async () => {
        await client.query('ROLLBACK');
        await client.end();
      },
    };
  }
  const connection = new DatabaseSync(database.config.filePath);
  connection.exec('BEGIN IMMEDIATE');
  return {
    // node:sqlite waits for a busy lock inside the call, so a gateway waiting for our write lock stops answering.
    isGatewayWaiting: async (gatewayUrl) => {
      try {
        await fetch(`${gatewayUrl}/health`, { signal: AbortSignal.timeout(300) });
        return false;
      } catch {
        return true;
      }
    },
    release: async () => {
      connection.exec('ROLLBACK');
      connection.close();
    },
  };
}

for (const databaseKind of databaseKinds) {
  describe(`kill -9 while crediting a top-up on ${databaseKind}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    test('the half-done crediting leaves nothing, and the provider’s retry after restart credits exactly once', async () => {
      const database = await createTestDatabase(databaseKind);
      cleanups.push(database.drop);
      const port = await findFreePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const environment = {
        PATH: process.env.PATH ?? '',
        ...database.environment,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: baseUrl,
        SANDBOX: 'on',
        PAYMENT_SANDBOX: 'off',
        // The test signs up over the API, as a script would: no proof-of-work challenge, welcome balance at once.
        SIGNUP_ABUSE_CHECKS: 'off',
        WELCOME_BALANCE_AT: 'sign-up',
        // A fixed rate: no exchange-rate feed is read.
        FX_FIXED_RUB_PER_USD: '90',
        WELCOME_BALANCE_USD: '0',
        LOG_LEVEL: 'info',
      };
      const stripe: StripeSimulator = await startStripeSimulator({
        ...stripeSecrets,
        notificationUrl: `${baseUrl}/webhooks/stripe`,
        // Re-deliveries for 90 s: a loaded machine can take a while to start the gateway again.
        retryDelaysMs: Array.from({ length: 90 }, () => 1000),
      });
      cleanups.push(stripe.close);
      const start = async (): Promise<GatewayProcess> => {
        const gateway = spawnGatewayProcess({
          command: process.execPath,
          args: ['--disable-warning=ExperimentalWarning', scriptPath, stripe.url, ...Object.values(stripeSecrets)],
          environment,
        });
        cleanups.push(async () => {
          if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
          await gateway.processExited;
        });
        await waitForListening(gateway);
        return gateway;
      };
      const handle: DatabaseHandle = openDatabase(parseConfig(environment).database);
      cleanups.push(handle.close);
      const db = handle.db;

      const first = await start();
      const session = await signUp(baseUrl, { email: 'crash@example.com' });
      const created = await callApi(baseUrl, '/api/top-ups', {
        session,
        body: { method: 'card_usd', currency: 'USD', amount_minor: 500 },
      });
      assert.equal(created.status, 201, created.text);
      const orderId = (created.json as { order: { id: string } }).order.id;
      const order = await db
        .selectFrom('top_up_orders')
        .selectAll()
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
      const sessionId = order.provider_payment_id ?? '';
      assert.match(sessionId, /^cs_test_/);
      const creditKey = `topup:stripe:${sessionId}`;

      const lock = await holdLock(database, session.me.id);
      stripe.pay(sessionId);
      await waitUntil('the gateway is inside the crediting transaction', () => lock.isGatewayWaiting(baseUrl));
      first.child.kill('SIGKILL');
      assert.deepEqual(await first.processExited, { code: null, signal: 'SIGKILL' });
      await lock.release();

      // Nothing of the interrupted crediting was kept: no entry, no recorded event, the order still waits.
      await waitUntil('the killed connection is gone', async () => {
        const row = await db.selectFrom('top_up_orders').select('status').where('id', '=', orderId).executeTakeFirst();
        return row?.status === 'pending';
      });
      const keptCredits = await db
        .selectFrom('ledger_transactions')
        .select('id')
        .where('idempotency_key', '=', creditKey)
        .execute();
      assert.deepEqual(keptCredits, []);
      assert.deepEqual(await db.selectFrom('payment_provider_events').select('event_key').execute(), []);
      await assertLedgerBalanced(db);

      await start();
      await waitUntil(
        'the provider’s retry is credited',
        async () =>
          (await db.selectFrom('top_up_orders').select('status').where('id', '=', orderId).executeTakeFirst())
            ?.status === 'succeeded',
      );
      // The delivery that credited is recorded once its answer is back.
      await stripe.whenNotificationsSettled();
      const attempts = stripe.notificationAttempts();
      assert.ok(
        attempts.some((attempt) => attempt.status === undefined || attempt.status >= 500),
        'the delivery cut by the kill failed and was retried',
      );
      assert.ok(attempts.some((attempt) => attempt.status === 200));
      // A further re-delivery of the same event credits nothing more.
      const eventId = (JSON.parse(attempts[0]?.body ?? '{}') as { id?: string }).id ?? '';
      stripe.resendEvent(eventId);
      await stripe.whenNotificationsSettled();
      const credits = await db
        .selectFrom('ledger_transactions')
        .select('id')
        .where('idempotency_key', '=', creditKey)
        .execute();
      assert.equal(credits.length, 1);
      const user = await db
        .selectFrom('users')
        .select('balance_micros')
        .where('id', '=', session.me.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(user.balance_micros), Number(order.credit_micros));
      await assertLedgerBalanced(db);
    });
  });
}
