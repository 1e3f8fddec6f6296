import type { Database } from '../db/database.ts';
import { insertCryptoDeposit, nextDerivationIndex } from '../db/crypto-deposits.ts';
import type { Clock } from '../lib/clock.ts';
import type { TronDepositStore } from './providers/tron/tron-provider.ts';

const attempts = 5;

/**
 * TRON deposits in `crypto_deposits`: each order takes the next derivation index. Two orders created at once may
 * pick the same one; the unique index lets one through and the other takes the next, so no address is ever shared.
 */
export function createTronDepositStore(deps: { db: Database; clock: Clock }): TronDepositStore {
  return {
    createDeposit: async (input) => {
      for (let attempt = 1; ; attempt += 1) {
        const index = await nextDerivationIndex(deps.db, 'tron');
        const address = input.addressFor(index);
        try {
          await insertCryptoDeposit(deps.db, {
            order_id: input.orderId,
            way: 'tron',
            pay_address: address,
            derivation_index: index,
            expected_micro_usdt: input.expectedMicroUsdt,
            micro_usdt_per_usd: input.microUsdtPerUsd,
            seen_tx_id: null,
            seen_at: null,
            created_at: deps.clock.nowMs(),
          });
          return { address, derivationIndex: index };
        } catch (error) {
          if (attempt >= attempts) throw error;
        }
      }
    },
  };
}
