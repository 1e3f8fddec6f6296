import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HDKey } from '@scure/bip32';
import { Agent } from 'undici';
import {
  startTronGridSimulator,
  type TronGridSimulator,
} from '../../../simulators/payments/trongrid/start-trongrid-simulator.ts';
import { findCryptoDeposit } from '../../src/db/crypto-deposits.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { findTopUpOrder, lockTopUpOrder } from '../../src/db/top-up-orders.ts';
import { insertUser } from '../../src/db/users.ts';
import { cryptoIds } from '../../src/lib/ids.ts';
import { createPaymentHttp } from '../../src/payments/create-payment-http.ts';
import { createTopUpOrder } from '../../src/payments/create-top-up-order.ts';
import { createTronDepositStore } from '../../src/payments/create-tron-deposit-store.ts';
import { createPaymentProviders } from '../../src/payments/payment-providers.ts';
import { parseTronXpub } from '../../src/payments/providers/tron/tron-address.ts';
import { createTronProvider } from '../../src/payments/providers/tron/tron-provider.ts';
import { watchTronDeposits } from '../../src/payments/providers/tron/watch-tron-deposits.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/test-databases.ts';

const passScript = path.join(import.meta.dirname, '../support/tron-watch-pass.ts');
const xpub = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive("m/44'/195'/0'").publicExtendedKey;

async function waitFor(isDone: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!isDone()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const kind of databaseKinds) {
  describe(`the USDT watcher killed with kill -9 while crediting, on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let chain: TronGridSimulator;
    let agent: Agent;

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      chain = await startTronGridSimulator();
      agent = new Agent();
    });
    after(async () => {
      await chain.close();
      await agent.close();
      await handle.close();
      await testDatabase.drop();
    });

    test('a transfer seen by a watcher killed before its credit committed is credited exactly once after restart', async () => {
      const clock = { nowMs: () => Date.now() };
      const provider = createTronProvider({
        account: parseTronXpub(xpub),
        store: createTronDepositStore({ db: handle.db, clock }),
        microUsdtPerUsd: 1_000_000,
        isSandbox: true,
      });
      const deps = {
        db: handle.db,
        clock,
        ids: cryptoIds,
        fx: { markupBasisPoints: 0, fixedMicroRoublesPerUsd: 1, maxRateAgeMs: 1, cbrUrl: 'http://127.0.0.1:9/' },
        paymentProviders: createPaymentProviders([provider]),
        topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
        topUpReturnUrl: 'https://gateway.example/billing/return',
        onBalancesChanged: async () => undefined,
        tronGrid: { http: createPaymentHttp({ dispatcher: agent }), apiBaseUrl: chain.url, apiKey: undefined },
        provider,
        watchWindowMs: 24 * 3_600_000,
        onOrderError: () => undefined,
      };
      await insertUser(handle.db, {
        id: 'usr_crash',
        email: 'c@example.com',
        password_hash: 'x',
        role: 'user',
        created_at: 1,
      });
      const { order } = await createTopUpOrder(deps, {
        userId: 'usr_crash',
        customerEmail: 'c@example.com',
        method: 'usdt_trc20',
        amount: { currency: 'USD', minorUnits: 1000 },
      });
      const deposit = await findCryptoDeposit(handle.db, order.id);
      assert.ok(deposit);
      chain.send({ to: deposit.pay_address, amount: '10', isConfirmed: true });
      // The order is held locked, so the child sees the transfer and then waits inside its crediting transaction.
      let child: ChildProcess | undefined;
      await handle.db.transaction().execute(async (trx) => {
        await lockTopUpOrder(trx, order.id);
        const callsBefore = chain.apiCallCount();
        child = spawn(process.execPath, [passScript], {
          env: {
            ...process.env,
            TRON_WATCH_PASS: JSON.stringify({ database: testDatabase.config, tronGridUrl: chain.url, xpub }),
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        await waitFor(() => chain.apiCallCount() > callsBefore, 'the watcher to see the transfer');
        await new Promise((resolve) => setTimeout(resolve, 300));
        const exited = new Promise((resolve) => child?.once('exit', resolve));
        assert.equal(child.kill('SIGKILL'), true);
        await exited;
      });
      assert.equal(child?.signalCode, 'SIGKILL', 'the watcher was killed, not finished');
      assert.equal(await sumLedgerAccount(handle.db, userLedgerAccount('usr_crash')), 0, 'nothing half-credited');
      await watchTronDeposits(deps);
      await watchTronDeposits(deps);
      assert.equal(await sumLedgerAccount(handle.db, userLedgerAccount('usr_crash')), 10_000_000);
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'succeeded');
      await assertLedgerBalanced(handle.db);
    });
  });
}
