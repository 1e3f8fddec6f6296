import type { CryptoDepositView, TopUpOrderView } from '../../../contract/payments.ts';
import { findCryptoDeposit } from '../db/crypto-deposits.ts';
import type { Database } from '../db/database.ts';
import type { CryptoDepositRow } from '../db/schema.ts';
import { formatUsdt } from './write-receipt-to-order.ts';

/** The order view with its USDT deposit (address, exact amount, stage), when it has one. */
export async function withCryptoDeposit(db: Database, view: TopUpOrderView): Promise<TopUpOrderView> {
  const deposit = await findCryptoDeposit(db, view.id);
  return deposit ? { ...view, crypto_deposit: toCryptoDepositView(deposit) } : view;
}

export function toCryptoDepositView(deposit: CryptoDepositRow): CryptoDepositView {
  const received = Number(deposit.received_micro_usdt);
  const expected = Number(deposit.expected_micro_usdt);
  return {
    network: 'TRC20',
    token: 'USDT',
    address: deposit.pay_address,
    amount: formatUsdt(expected),
    amount_micro: expected,
    received_micro: received,
    stage:
      received >= expected
        ? 'credited'
        : received > 0
          ? 'partially_credited'
          : deposit.seen_tx_id === null
            ? 'waiting'
            : 'seen',
    seen_tx_id: deposit.seen_tx_id,
  };
}
