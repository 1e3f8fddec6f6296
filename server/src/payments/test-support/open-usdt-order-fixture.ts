import { Agent } from 'undici';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../db/ledger.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { findTopUpOrder } from '../../db/top-up-orders.ts';
import { insertUser } from '../../db/users.ts';
import type { Clock } from '../../lib/clock.ts';
import { cryptoIds } from '../../lib/ids.ts';
import { createNowPaymentsDepositStore } from '../create-nowpayments-deposit-store.ts';
import { createPaymentHttp } from '../create-payment-http.ts';
import { createTopUpOrder, type CreateTopUpOrderDeps } from '../create-top-up-order.ts';
import type { PaymentProvider } from '../payment-provider.ts';
import type { PaymentProviders } from '../payment-providers.ts';
import { createNowPaymentsProvider } from '../providers/nowpayments/nowpayments-provider.ts';

/** Nothing listens on the discard port on loopback: a URL no call or notification ever reaches. */
export const unreachableUrl = 'http://127.0.0.1:9/';

/**
 * What the USDT order tests (NOWPayments notifications and reconciliation, the TRON watcher) share: a migrated
 * throwaway database, the top-up order deps, an HTTP agent for the providers, and a user with a `usdt_trc20` order.
 */
export type UsdtOrderFixture = {
  handle: DatabaseHandle;
  agent: Agent;
  /** The deps `createTopUpOrder` and the payment passes take, over `paymentProviders`. */
  deps: CreateTopUpOrderDeps & { onBalancesChanged: () => Promise<void> };
  /** A new user (ids `usr_<prefix>_<n>`) with a USDT order of `cents`, as the provider created it. */
  newOrder: (
    cents: number,
  ) => Promise<{ userId: string; order: Awaited<ReturnType<typeof createTopUpOrder>>['order'] }>;
  balanceOf: (userId: string) => Promise<number>;
  statusOf: (orderId: string) => Promise<string | undefined>;
  close: () => Promise<void>;
};

export async function openUsdtOrderFixture(input: {
  kind: DatabaseKind;
  clock: Clock;
  paymentProviders: PaymentProviders;
  userPrefix: string;
  fixedMicroRoublesPerUsd?: number;
}): Promise<UsdtOrderFixture> {
  const testDatabase: TestDatabase = await createTestDatabase(input.kind);
  const handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  const agent = new Agent();
  const deps = {
    db: handle.db,
    clock: input.clock,
    ids: cryptoIds,
    fx: {
      markupBasisPoints: 0,
      fixedMicroRoublesPerUsd: input.fixedMicroRoublesPerUsd ?? 100_000_000,
      maxRateAgeMs: 1,
      cbrUrl: unreachableUrl,
    },
    paymentProviders: input.paymentProviders,
    topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
    topUpReturnUrl: 'https://gateway.example/billing/return',
    onBalancesChanged: async () => undefined,
  };
  let userNumber = 0;
  const newOrder = async (cents: number) => {
    userNumber += 1;
    const userId = `usr_${input.userPrefix}_${userNumber}`;
    const email = `${userId}@example.com`;
    await insertUser(handle.db, { id: userId, email, password_hash: 'x', role: 'user', created_at: 1 });
    const { order } = await createTopUpOrder(deps, {
      userId,
      customerEmail: email,
      method: 'usdt_trc20',
      amount: { currency: 'USD', minorUnits: cents },
    });
    return { userId, order };
  };
  return {
    handle,
    agent,
    deps,
    newOrder,
    balanceOf: (userId) => sumLedgerAccount(handle.db, userLedgerAccount(userId)),
    statusOf: async (orderId) => (await findTopUpOrder(handle.db, orderId))?.status,
    close: async () => {
      await agent.close();
      await handle.close();
      await testDatabase.drop();
    },
  };
}

/** The NOWPayments provider in sandbox mode against its simulator (at `simulator.url`), notifying `ipnCallbackUrl`. */
export function createSimulatedNowPayments(
  fixture: Pick<UsdtOrderFixture, 'handle' | 'agent'>,
  input: {
    simulator: { url: string };
    credentials: { apiKey: string; ipnSecret: string };
    ipnCallbackUrl: string;
    clock: Clock;
  },
): PaymentProvider {
  return createNowPaymentsProvider({
    ...input.credentials,
    apiBaseUrl: input.simulator.url,
    ipnCallbackUrl: input.ipnCallbackUrl,
    store: createNowPaymentsDepositStore({ db: fixture.handle.db, clock: input.clock }),
    http: createPaymentHttp({ dispatcher: fixture.agent }),
    isSandbox: true,
  });
}
