import { insertCryptoDeposit } from '../db/crypto-deposits.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { NowPaymentsDepositStore } from './providers/nowpayments/nowpayments-provider.ts';

/** NOWPayments deposits in `crypto_deposits`: the processor's address and amount, no derivation index. */
export function createNowPaymentsDepositStore(deps: { db: Database; clock: Clock }): NowPaymentsDepositStore {
  return {
    recordDeposit: async (input) => {
      await insertCryptoDeposit(deps.db, {
        order_id: input.orderId,
        way: 'nowpayments',
        pay_address: input.address,
        derivation_index: null,
        expected_micro_usdt: input.expectedMicroUsdt,
        micro_usdt_per_usd: input.microUsdtPerUsd,
        seen_tx_id: null,
        seen_at: null,
        created_at: deps.clock.nowMs(),
      });
    },
  };
}
