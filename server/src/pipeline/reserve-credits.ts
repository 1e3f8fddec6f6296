import { affordableOutputTokens, estimateInputTokensUpperBound, planHold } from '../billing/estimate-max-cost.ts';
import type { CreditHold, CreditHolds } from '../billing/credit-holds.ts';
import type { CatalogModel } from '../catalog/price-list.ts';
import { InsufficientCreditsError } from '../errors/insufficient-credits-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import { formatUsd } from '../lib/money.ts';
import type { Caller } from './authenticate.ts';

export type Reservation = {
  hold: CreditHold;
  /** The output limit to send upstream: the requested one, or lower when the balance affords less (never higher). */
  maxOutputTokens: number;
  isOutputLimitLowered: boolean;
};

export type RequestSize = {
  textBytes: number;
  messageCount: number;
  imageCount: number;
  requestedMaxOutputTokens: number | undefined;
};

/**
 * Holds the worst-case cost of the call: an upper bound of its input plus its maximum output. When the balance
 * cannot cover that, the output limit is lowered to what it affords; only when not even the input (plus one output
 * token) is affordable is the call refused with 402.
 */
export async function reserveCredits(
  deps: { creditHolds: CreditHolds },
  input: { caller: Caller; model: CatalogModel; size: RequestSize; holdId: string },
): Promise<Reservation> {
  const { caller, model, size } = input;
  const requested = Math.min(size.requestedMaxOutputTokens ?? model.maxOutputTokens, model.maxOutputTokens);
  const plan = planHold(model, { inputTokens: estimateInputTokensUpperBound(size), maxOutputTokens: requested });
  const spendCap = caller.key.spendCapMicros;
  if (spendCap !== null && caller.key.spentMicros + plan.minimumMicros > spendCap) {
    throw new PermissionDeniedError(`This API key has reached its spend cap of ${formatUsd(spendCap)} USD.`, {
      code: 'key_spend_cap_reached',
    });
  }
  const desiredMicros =
    spendCap === null ? plan.desiredMicros : Math.min(plan.desiredMicros, spendCap - caller.key.spentMicros);
  const hold = await deps.creditHolds.reserve({
    userId: caller.userId,
    holdId: input.holdId,
    desiredMicros,
    minimumMicros: plan.minimumMicros,
  });
  if (!hold) {
    const available = await deps.creditHolds.availableMicros(caller.userId);
    throw new InsufficientCreditsError(
      `Your balance (${formatUsd(Math.max(available, 0))} USD available) does not cover the input of this request (about ${formatUsd(plan.minimumMicros)} USD). Top up your balance to continue.`,
    );
  }
  const maxOutputTokens = Math.min(
    requested,
    affordableOutputTokens(model, { heldMicros: hold.heldMicros, inputCostMicros: plan.inputCostMicros }),
  );
  return { hold, maxOutputTokens, isOutputLimitLowered: maxOutputTokens < requested };
}
