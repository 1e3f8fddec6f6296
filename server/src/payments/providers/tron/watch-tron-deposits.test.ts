import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  startTronGridSimulator,
  type TronGridSimulator,
} from '../../../../../simulators/payments/trongrid/start-trongrid-simulator.ts';
import { assertLedgerBalanced } from '../../../../test/support/assert-ledger-balanced.ts';
import { databaseKinds } from '../../../../test/support/test-databases.ts';
import type { DatabaseHandle } from '../../../db/database.ts';
import { findCryptoDeposit, listCryptoDepositTransfers } from '../../../db/crypto-deposits.ts';
import { findTopUpOrder } from '../../../db/top-up-orders.ts';
import { createPaymentHttp } from '../../create-payment-http.ts';
import type { CreateTopUpOrderDeps } from '../../create-top-up-order.ts';
import { createTronDepositStore } from '../../create-tron-deposit-store.ts';
import { getOperatorPayment } from '../../list-operator-payments.ts';
import { createPaymentProviders } from '../../payment-providers.ts';
import { syncTopUpOrder } from '../../sync-top-up-order.ts';
import { openUsdtOrderFixture, type UsdtOrderFixture } from '../../test-support/open-usdt-order-fixture.ts';
import { deriveTronAddress, parseTronXpub } from './tron-address.ts';
import { createTronProvider } from './tron-provider.ts';
import { keyDeposits, usdtTronContract, type Trc20Transfer } from './trongrid-api.ts';
import { watchTronDeposits, type TronWatchDeps } from './watch-tron-deposits.ts';

const xpub = HDKey.fromMasterSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
).derive("m/44'/195'/0'").publicExtendedKey;
const account = parseTronXpub(xpub);
const lookAlikeContract = 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj';

for (const kind of databaseKinds) {
  describe(`USDT on TRON watched directly, on ${kind}`, () => {
    let fixture: UsdtOrderFixture;
    let handle: DatabaseHandle;
    let chain: TronGridSimulator;
    let nowMs = Date.now();
    let deps: CreateTopUpOrderDeps & TronWatchDeps;

    before(async () => {
      const clock = { nowMs: () => nowMs };
      const providers = createPaymentProviders([]);
      fixture = await openUsdtOrderFixture({
        kind,
        clock,
        paymentProviders: providers,
        userPrefix: 'usdt',
        fixedMicroRoublesPerUsd: 92_282_100,
      });
      handle = fixture.handle;
      chain = await startTronGridSimulator({ now: () => nowMs });
      const provider = createTronProvider({
        account,
        store: createTronDepositStore({ db: handle.db, clock }),
        microUsdtPerUsd: 1_000_000,
        isSandbox: true,
      });
      providers.add(provider);
      deps = {
        ...fixture.deps,
        tronGrid: { http: createPaymentHttp({ dispatcher: fixture.agent }), apiBaseUrl: chain.url, apiKey: undefined },
        provider,
        watchWindowMs: 7 * 24 * 3_600_000,
        onOrderError: () => undefined,
      };
    });
    after(async () => {
      await chain.close();
      await fixture.close();
    });

    async function newOrder(cents: number) {
      const { userId, order } = await fixture.newOrder(cents);
      const deposit = await findCryptoDeposit(handle.db, order.id);
      assert.ok(deposit);
      return { userId, orderId: order.id, address: deposit.pay_address, deposit };
    }

    const balanceOf = (userId: string) => fixture.balanceOf(userId);
    const statusOf = (orderId: string) => fixture.statusOf(orderId);

    test('each order gets the next address derived from the xpub, and pays exactly once when confirmed', async () => {
      const first = await newOrder(1000);
      const second = await newOrder(1000);
      assert.equal(second.deposit.derivation_index, (first.deposit.derivation_index ?? -1) + 1);
      assert.equal(first.address, deriveTronAddress(account, first.deposit.derivation_index ?? -1));
      assert.equal(first.deposit.expected_micro_usdt, 10_000_000);
      const tx = chain.send({ to: first.address, amount: '10' });
      await watchTronDeposits(deps);
      assert.equal(await balanceOf(first.userId), 0, 'an unconfirmed transfer credits nothing');
      assert.equal((await findCryptoDeposit(handle.db, first.orderId))?.seen_tx_id, tx);
      chain.confirm(tx);
      await watchTronDeposits(deps);
      await watchTronDeposits(deps);
      assert.equal(await balanceOf(first.userId), 10_000_000);
      assert.equal(await statusOf(first.orderId), 'succeeded');
      const transfers = await listCryptoDepositTransfers(handle.db, first.orderId);
      assert.deepEqual(
        transfers.map((row) => [row.tx_id, row.amount_micro_usdt]),
        [[tx, 10_000_000]],
      );
      const tronExplorerTxUrl = 'https://explorer.example/#/transaction/';
      const operatorView = await getOperatorPayment({ db: handle.db, tronExplorerTxUrl }, first.orderId);
      assert.equal(operatorView.derivation_index, first.deposit.derivation_index);
      assert.equal(operatorView.crypto_deposit?.address, first.address);
      assert.deepEqual(
        operatorView.crypto_transfers?.map((row) => [row.explorer_url, row.credited_usd]),
        [[`${tronExplorerTxUrl}${tx}`, 10]],
      );
      await assertLedgerBalanced(handle.db);
    });

    test('an underpayment credits what came and is partially paid; a second transfer credits on its own', async () => {
      const order = await newOrder(1000);
      chain.send({ to: order.address, amount: '7.25', isConfirmed: true });
      await watchTronDeposits(deps);
      assert.equal(await balanceOf(order.userId), 7_250_000);
      assert.equal(await statusOf(order.orderId), 'partially_paid');
      chain.send({ to: order.address, amount: '2.75', isConfirmed: true });
      await watchTronDeposits(deps);
      assert.equal(await balanceOf(order.userId), 10_000_000);
      assert.equal(await statusOf(order.orderId), 'succeeded');
      chain.send({ to: order.address, amount: '1', isConfirmed: true });
      await watchTronDeposits(deps);
      assert.equal(await balanceOf(order.userId), 11_000_000, 'a third transfer to a paid order is a third credit');
      assert.equal((await listCryptoDepositTransfers(handle.db, order.orderId)).length, 3);
      await assertLedgerBalanced(handle.db);
    });

    test('an overpayment is credited in full', async () => {
      const order = await newOrder(500);
      chain.send({ to: order.address, amount: '12.345678', isConfirmed: true });
      await watchTronDeposits(deps);
      assert.equal(await balanceOf(order.userId), 12_345_678);
      assert.equal(await statusOf(order.orderId), 'succeeded');
      await assertLedgerBalanced(handle.db);
    });

    test('a payment after the order expired is credited and flagged for the operator', async () => {
      const order = await newOrder(1000);
      nowMs += 2 * 3_600_000;
      const expired = await findTopUpOrder(handle.db, order.orderId);
      assert.ok(expired);
      await syncTopUpOrder(deps, { order: expired, source: 'reconciliation' });
      assert.equal(await statusOf(order.orderId), 'expired');
      chain.send({ to: order.address, amount: '10', isConfirmed: true });
      await watchTronDeposits(deps);
      const row = await findTopUpOrder(handle.db, order.orderId);
      assert.equal(row?.status, 'succeeded');
      assert.equal(row?.is_paid_after_expiry, 1);
      assert.match(row?.review_reason ?? '', /after the order was expired/);
      assert.equal(await balanceOf(order.userId), 10_000_000);
      await assertLedgerBalanced(handle.db);
    });

    test('a look-alike token named USDT, a TRX transfer and a transfer seen then dropped credit nothing', async () => {
      const order = await newOrder(1000);
      chain.send({ to: order.address, amount: '10', contract: lookAlikeContract, symbol: 'USDT', isConfirmed: true });
      chain.sendTrx({ to: order.address, amountSun: 10_000_000 });
      const vanishing = chain.send({ to: order.address, amount: '10' });
      await watchTronDeposits(deps);
      assert.equal((await findCryptoDeposit(handle.db, order.orderId))?.seen_tx_id, vanishing);
      chain.drop(vanishing);
      for (let pass = 0; pass < 3; pass += 1) await watchTronDeposits(deps);
      assert.equal(await balanceOf(order.userId), 0);
      assert.equal(await statusOf(order.orderId), 'pending');
      await assertLedgerBalanced(handle.db);
    });

    test('two watchers polling the same transfer at once credit it once', async () => {
      const order = await newOrder(1000);
      chain.send({ to: order.address, amount: '10', isConfirmed: true });
      await Promise.all([watchTronDeposits(deps), watchTronDeposits(deps), watchTronDeposits(deps)]);
      assert.equal(await balanceOf(order.userId), 10_000_000);
      assert.equal((await listCryptoDepositTransfers(handle.db, order.orderId)).length, 1);
      await assertLedgerBalanced(handle.db);
    });

    test('TronGrid rate-limited or down: the pass fails, the order keeps waiting, the next pass credits', async () => {
      const order = await newOrder(1000);
      chain.send({ to: order.address, amount: '10', isConfirmed: true });
      for (const status of [429, 503]) {
        chain.fail({ status, count: 1 });
        await assert.rejects(watchTronDeposits(deps), (error: unknown) => {
          return (
            error instanceof Error && error.name === 'PaymentProviderError' && error.message.includes(String(status))
          );
        });
      }
      assert.equal(await statusOf(order.orderId), 'pending');
      assert.equal(await balanceOf(order.userId), 0);
      await watchTronDeposits(deps);
      assert.equal(await balanceOf(order.userId), 10_000_000);
      await assertLedgerBalanced(handle.db);
    });
  });
}

test('a listing that ignores the contract filter still credits only USDT to this address, each transfer keyed once', () => {
  const address = deriveTronAddress(account, 0);
  const row = (overrides: Partial<Trc20Transfer>): Trc20Transfer => ({
    transaction_id: 'a'.repeat(64),
    token_info: { symbol: 'USDT', address: usdtTronContract, decimals: 6 },
    block_timestamp: 1,
    from: 'TJmmqjb1DK9TTZbQXzRQ2AuA94z4gKAPFh',
    to: address,
    type: 'Transfer',
    value: '5000000',
    ...overrides,
  });
  const keyed = keyDeposits(
    [
      row({}),
      row({}),
      row({ value: '1000000' }),
      row({ transaction_id: 'b'.repeat(64), token_info: { symbol: 'USDT', address: lookAlikeContract, decimals: 6 } }),
      row({ transaction_id: 'c'.repeat(64), to: 'TJmmqjb1DK9TTZbQXzRQ2AuA94z4gKAPFh', from: address }),
      row({ transaction_id: 'd'.repeat(64), type: 'Approval' }),
    ],
    address,
  );
  assert.deepEqual(
    keyed.map(({ key, transfer }) => [key, transfer.value]),
    [
      [`${'a'.repeat(64)}:0`, '1000000'],
      [`${'a'.repeat(64)}:1`, '5000000'],
    ],
  );
});
