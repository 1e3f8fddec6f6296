import type { CreditHold, CreditHolds } from '../billing/credit-holds.ts';
import { InsufficientCreditsError } from '../errors/insufficient-credits-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import { formatUsd } from '../lib/money.ts';
import type { Caller } from '../pipeline/authenticate.ts';

/**
 * Holds the whole price of the request (n × the per-image price, the dearest one when the model picks quality or
 * size) before any vendor is called. Unlike a chat call there is nothing to lower: the hold is all or nothing, and a
 * balance (or key spend cap) that cannot cover it is refused with 402 (or 403).
 */
export async function reserveImageCredits(
  deps: { creditHolds: CreditHolds },
  input: { caller: Caller; imageCount: number; perImageMicros: number; holdId: string },
): Promise<CreditHold> {
  const { caller } = input;
  const costMicros = input.imageCount * input.perImageMicros;
  const spendCap = caller.key.spendCapMicros;
  if (spendCap !== null && caller.key.spentMicros + costMicros > spendCap) {
    throw new PermissionDeniedError(`This API key has reached its spend cap of ${formatUsd(spendCap)} USD.`, {
      code: 'key_spend_cap_reached',
    });
  }
  const hold = await deps.creditHolds.reserve({
    userId: caller.userId,
    holdId: input.holdId,
    desiredMicros: costMicros,
    minimumMicros: costMicros,
  });
  if (hold) return hold;
  const available = await deps.creditHolds.availableMicros(caller.userId);
  throw new InsufficientCreditsError(
    `Your balance (${formatUsd(Math.max(available, 0))} USD available) does not cover this request (${input.imageCount} × ${formatUsd(input.perImageMicros)} USD). Top up your balance to continue.`,
  );
}
