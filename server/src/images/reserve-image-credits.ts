import type { CreditHold, CreditHolds } from '../billing/credit-holds.ts';
import type { SpendCapHolds } from '../limits/spend-cap-holds.ts';
import type { BudgetShare, SpendBudgets } from '../limits/spend-budgets.ts';
import type { Clock } from '../lib/clock.ts';
import { takeKeyBudgetShare } from '../pipeline/take-key-budget-share.ts';
import { InsufficientCreditsError } from '../errors/insufficient-credits-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import { negativeBalanceMessage } from '../billing/negative-balance-message.ts';
import { formatUsd } from '../lib/money.ts';
import type { Admission } from '../pipeline/admit-call.ts';
import type { Caller } from '../pipeline/authenticate.ts';
import { giveBackHeld } from '../pipeline/reserve-credits.ts';

/** The credit held for an image call, and the share of its key's spend cap it set aside (when the key has one). */
export type ImageReservation = {
  hold: CreditHold;
  spendCapShare: { keyId: string; micros: number } | undefined;
  budgetShare: BudgetShare | undefined;
};

type ReserveImageCreditsDeps = {
  creditHolds: CreditHolds;
  spendCapHolds: SpendCapHolds;
  spendBudgets: SpendBudgets;
  clock: Pick<Clock, 'nowMs'>;
};

/**
 * Holds the whole price of the request (n × the per-image price, the dearest one when the model picks quality or
 * size) before any vendor is called. Unlike a chat call there is nothing to lower: the hold is all or nothing, and a
 * balance (or key spend cap) that cannot cover it is refused with 402 (or 403). The spend cap share is taken in one
 * step with the other calls of the key (`spend-cap-holds.ts`), so calls started together cannot pass the cap. The
 * call's admission, when given, is asked for in the same turn as the hold (one Redis round trip); its refusal wins and
 * gives the hold back.
 */
export async function reserveImageCredits(
  deps: ReserveImageCreditsDeps,
  input: {
    caller: Caller;
    imageCount: number;
    perImageMicros: number;
    holdId: string;
    admission?: Pick<Admission, 'admit'> | undefined;
  },
): Promise<ImageReservation> {
  const [admission, reserved] = await Promise.allSettled([input.admission?.admit(), holdImageCredits(deps, input)]);
  if (admission.status === 'fulfilled') {
    if (reserved.status === 'rejected') throw reserved.reason;
    return reserved.value;
  }
  if (reserved.status === 'fulfilled') await giveBackHeld(deps, reserved.value);
  throw admission.reason;
}

async function holdImageCredits(
  deps: ReserveImageCreditsDeps,
  input: { caller: Caller; imageCount: number; perImageMicros: number; holdId: string },
): Promise<ImageReservation> {
  const { caller } = input;
  const costMicros = input.imageCount * input.perImageMicros;
  const capMicros = caller.key.spendCapMicros;
  let spendCapShare: ImageReservation['spendCapShare'];
  if (capMicros !== null) {
    const micros = deps.spendCapHolds.take({
      keyId: caller.key.id,
      capMicros,
      spentMicros: caller.key.spentMicros,
      desiredMicros: costMicros,
      minimumMicros: costMicros,
    });
    if (micros === undefined) {
      throw new PermissionDeniedError(`This API key has reached its spend cap of ${formatUsd(capMicros)} USD.`, {
        code: 'key_spend_cap_reached',
      });
    }
    spendCapShare = { keyId: caller.key.id, micros };
  }
  const giveBackCapShare = () => {
    if (spendCapShare)
      deps.spendCapHolds.finish({ ...spendCapShare, shareMicros: spendCapShare.micros, chargedMicros: 0 });
  };
  let budgetShare: BudgetShare | undefined;
  try {
    const share = { shareId: input.holdId, desiredMicros: costMicros, minimumMicros: costMicros };
    budgetShare = await takeKeyBudgetShare(deps, { caller, ...share });
  } catch (error) {
    giveBackCapShare();
    throw error;
  }
  const hold = await deps.creditHolds.reserve({
    userId: caller.userId,
    holdId: input.holdId,
    desiredMicros: costMicros,
    minimumMicros: costMicros,
  });
  if (hold) return { hold, spendCapShare, budgetShare };
  giveBackCapShare();
  if (budgetShare) await deps.spendBudgets.finish({ share: budgetShare, chargedMicros: 0 });
  const available = await deps.creditHolds.availableMicros(caller.userId);
  throw new InsufficientCreditsError(
    negativeBalanceMessage(available) ??
      `Your balance (${formatUsd(Math.max(available, 0))} USD available) does not cover this request (${input.imageCount} × ${formatUsd(input.perImageMicros)} USD). Top up your balance to continue.`,
  );
}
