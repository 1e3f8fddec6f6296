import { listWatchedDeposits, markDepositSeen } from '../../../db/crypto-deposits.ts';
import type { CryptoDepositRow, TopUpOrderRow } from '../../../db/schema.ts';
import { applyPaymentEvent, type PaymentCoreDeps } from '../../apply-payment-event.ts';
import { isWaitingStatus } from '../../order-state-machine.ts';
import type { PaymentProvider } from '../../payment-provider.ts';
import { keyDeposits, listTrc20Transfers, type TronGridAccess } from './trongrid-api.ts';

export type TronWatchDeps = PaymentCoreDeps & {
  tronGrid: TronGridAccess;
  provider: PaymentProvider;
  /** How long after its creation an order's address is still watched (late and second transfers credit too). */
  watchWindowMs: number;
  onOrderError: (orderId: string, error: unknown) => void;
};

/** Transfers a little older than the order still count: the chain's clock and ours differ by seconds. */
const clockSkewMs = 10 * 60_000;
const maxWatched = 1000;

/**
 * One pass of the chain watcher: for each TRON order still in its watch window, lists the USDT contract's confirmed
 * (solidified) transfers to its address and applies each through `applyPaymentEvent`, keyed by transaction, so a
 * transfer credits once however many passes or nodes see it; an order still waiting records a transfer seen but not
 * yet confirmed. Throws when TronGrid fails (the schedule backs off); one order's failure does not stop the others.
 */
export async function watchTronDeposits(deps: TronWatchDeps): Promise<{ applied: number }> {
  const watched = await listWatchedDeposits(deps.db, {
    way: 'tron',
    since: deps.clock.nowMs() - deps.watchWindowMs,
    limit: maxWatched,
  });
  let applied = 0;
  for (const { order, deposit } of watched) {
    try {
      applied += await watchOne(deps, { order, deposit });
    } catch (error) {
      deps.onOrderError(order.id, error);
      if (isUpstreamFailure(error)) throw error;
    }
  }
  return { applied };
}

async function watchOne(deps: TronWatchDeps, input: { order: TopUpOrderRow; deposit: CryptoDepositRow }) {
  const { order, deposit } = input;
  const address = deposit.pay_address;
  const minTimestamp = deposit.created_at - clockSkewMs;
  const confirmed = await listTrc20Transfers(deps.tronGrid, { address, confirmation: 'confirmed', minTimestamp });
  let applied = 0;
  for (const { key, transfer } of keyDeposits(confirmed, address)) {
    const microUsdt = Number(transfer.value);
    if (!Number.isSafeInteger(microUsdt) || microUsdt <= 0) continue;
    const outcome = await applyPaymentEvent(deps, {
      provider: deps.provider,
      source: 'chain watcher',
      event: {
        kind: 'received',
        eventKey: key,
        providerPaymentId: address,
        orderId: order.id,
        transferKey: key,
        txId: transfer.transaction_id.toLowerCase(),
        received: { currency: 'USDT', microUnits: microUsdt, isRunningTotal: false },
        isTest: deps.provider.isSandbox,
      },
    });
    if (outcome.kind === 'applied') applied += 1;
  }
  if (isWaitingStatus(order.status)) {
    const pending = await listTrc20Transfers(deps.tronGrid, { address, confirmation: 'unconfirmed', minTimestamp });
    const latest = keyDeposits(pending, address)[0];
    if (latest && latest.transfer.transaction_id !== deposit.seen_tx_id) {
      await markDepositSeen(deps.db, {
        orderId: order.id,
        txId: latest.transfer.transaction_id,
        at: deps.clock.nowMs(),
      });
    }
  }
  return applied;
}

function isUpstreamFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'PaymentProviderError';
}
