import {
  affordableOutputTokensPerChoice,
  estimateInputTokens,
  planHold,
  type HoldPlan,
  type InputEstimate,
  type InputSize,
} from '../billing/estimate-max-cost.ts';
import type { CreditHold, CreditHolds } from '../billing/credit-holds.ts';
import type { TokenUsage } from '../billing/pricing.ts';
import type { CatalogModel } from '../catalog/price-list.ts';
import { InsufficientCreditsError } from '../errors/insufficient-credits-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { SpendCapHolds } from '../limits/spend-cap-holds.ts';
import type { BudgetShare, SpendBudgets } from '../limits/spend-budgets.ts';
import type { Clock } from '../lib/clock.ts';
import { takeKeyBudgetShare } from './take-key-budget-share.ts';
import {
  findLargestAdmissibleTokens,
  refuseOversizedCall,
  settleTokens,
  takeTokens,
  type TakenTokens,
  type TokenLimit,
} from '../limits/token-budget.ts';
import { negativeBalanceMessage } from '../billing/negative-balance-message.ts';
import { formatUsd } from '../lib/money.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import type { Admission } from './admit-call.ts';
import type { Caller } from './authenticate.ts';
import { findTokenLimits } from './check-rate-limit.ts';

export type ReserveCreditsDeps = {
  creditHolds: Pick<CreditHolds, 'reserve' | 'release' | 'availableMicros'>;
  rateLimiter: RateLimiter;
  spendCapHolds: SpendCapHolds;
  spendBudgets: SpendBudgets;
  clock: Pick<Clock, 'nowMs'>;
  accountTerms: Pick<AccountTerms, 'limitsOf'>;
};

export type Reservation = {
  hold: CreditHold;
  /**
   * The output limit per choice to send upstream: the requested one, or lower when the balance (or the token budget
   * per minute) affords less; never higher.
   */
  maxOutputTokens: number;
  isOutputLimitLowered: boolean;
  /** The tokens taken from the caller's tokens-per-minute budgets, if any apply. */
  takenTokens: TakenTokens | undefined;
  /** The share of the key's spend cap set aside for the call, if the key has a cap. */
  spendCapShare: { keyId: string; micros: number } | undefined;
  /** The share of the key's day and month budgets set aside for the call, if the key has any. */
  budgetShare: BudgetShare | undefined;
  /** `x-ratelimit-*-tokens` for the response, empty when no token budget applies. */
  rateLimitHeaders: Record<string, string>;
};

/** What any call (text or images) sets aside before the upstream is asked, and gives back when it ends. */
export type HeldCredit = Pick<Reservation, 'hold' | 'spendCapShare' | 'budgetShare' | 'takenTokens'>;

export type RequestSize = InputSize & {
  requestedMaxOutputTokens: number | undefined;
  /** `n`: how many answers the vendor writes (and bills), each up to the output limit. 1 when absent. */
  choiceCount?: number;
};

/**
 * Holds the worst-case cost of the call: an upper bound of its input plus every choice's maximum output. When the
 * balance cannot cover that, the output limit is lowered to what it affords; only when not even the likely input
 * (plus one output token per choice) is affordable is the call refused with 402. In the same turn (with Redis, the
 * same round trip) takes the call's estimated tokens (likely input plus the output limit of every choice the token
 * budgets admit) from its tokens-per-minute budgets: 429 when over. A 402 wins over a 429 and gives the tokens back;
 * a 429 gives the hold back. When the balance lowered the output limit, the tokens it no longer needs are given back
 * at once, so the budgets count what they counted when the tokens were taken after the hold. The call's admission (its
 * request budgets and slot), when given, is asked for in the same turn too: its refusal wins over all of these and
 * gives back what they took.
 */
export async function reserveCredits(
  deps: ReserveCreditsDeps,
  input: {
    caller: Caller;
    model: CatalogModel;
    size: RequestSize;
    holdId: string;
    admission?: Pick<Admission, 'admit'> | undefined;
  },
): Promise<Reservation> {
  const { caller, model, size } = input;
  // First, so its commands go first in the write they share with the hold's.
  const admitted = input.admission?.admit();
  const choiceCount = size.choiceCount ?? 1;
  const estimate = estimateInputTokens(size);
  const tokenLimits = findTokenLimits(deps, caller);
  const requested = Math.min(size.requestedMaxOutputTokens ?? model.maxOutputTokens, model.maxOutputTokens);
  const admissible = fitOutputToTokenLimits({ requested, estimate, choiceCount, limits: tokenLimits });
  const tokensFor = (maxOutputTokens: number) => estimate.likelyTokens + maxOutputTokens * choiceCount;
  const [admission, held, tokens] = await Promise.allSettled([
    admitted,
    holdCredits(deps, { ...input, estimate, choiceCount, maxOutputTokensPerChoice: admissible }),
    tokenLimits.length === 0 ? undefined : takeTokens(deps, { limits: tokenLimits, tokens: tokensFor(admissible) }),
  ]);
  if (admission.status === 'rejected') {
    if (tokens.status === 'fulfilled' && tokens.value) await settleTokens(deps, tokens.value.taken, 0);
    if (held.status === 'fulfilled') await giveBackHeld(deps, held.value);
    throw admission.reason;
  }
  if (held.status === 'rejected') {
    if (tokens.status === 'fulfilled' && tokens.value) await settleTokens(deps, tokens.value.taken, 0);
    throw held.reason;
  }
  const { hold, spendCapShare, budgetShare } = held.value;
  if (tokens.status === 'rejected') {
    await giveBackHeld(deps, { hold, spendCapShare, budgetShare });
    throw tokens.reason;
  }
  const maxOutputTokens = Math.min(
    admissible,
    affordableOutputTokensPerChoice(model, { heldMicros: hold.heldMicros, input: estimate, choiceCount }),
  );
  const reservation = {
    hold,
    spendCapShare,
    budgetShare,
    maxOutputTokens,
    isOutputLimitLowered: maxOutputTokens < requested,
  };
  if (!tokens.value) return { ...reservation, takenTokens: undefined, rateLimitHeaders: {} };
  const { taken, headers } = tokens.value;
  if (maxOutputTokens === admissible) return { ...reservation, takenTokens: taken, rateLimitHeaders: headers };
  // Not awaited, like the correction after the call: it only paces later calls, which are sent after it.
  void settleTokens(deps, taken, tokensFor(maxOutputTokens)).catch(() => undefined);
  return { ...reservation, takenTokens: { ...taken, tokens: tokensFor(maxOutputTokens) }, rateLimitHeaders: headers };
}

/** A call refused after its hold (its tokens or its admission): the hold, the spend cap share and the budget share go back. */
export async function giveBackHeld(
  deps: Pick<ReserveCreditsDeps, 'creditHolds' | 'spendCapHolds' | 'spendBudgets'>,
  held: Pick<Reservation, 'hold' | 'spendCapShare' | 'budgetShare'>,
): Promise<void> {
  await deps.creditHolds.release(held.hold);
  const { spendCapShare, budgetShare } = held;
  if (spendCapShare) {
    deps.spendCapHolds.finish({ keyId: spendCapShare.keyId, shareMicros: spendCapShare.micros, chargedMicros: 0 });
  }
  if (budgetShare) await deps.spendBudgets.finish({ share: budgetShare, chargedMicros: 0 });
}

/**
 * After the call, once its charge (if any) is settled and counted in the key's spending: gives back the key's spend
 * cap share less what was charged, and the tokens it really used replace the estimate in its tokens-per-minute
 * budgets (no usage: it failed before the vendor billed anything). The budgets only pace calls, so a failure to
 * update them (Redis away) must not fail a call that is already paid for: the estimate then stays counted, which errs
 * on the slow side.
 */
export async function finishReservation(
  deps: { rateLimiter: RateLimiter; spendCapHolds: SpendCapHolds; spendBudgets: SpendBudgets },
  input: { reservation: HeldCredit; usage: TokenUsage | undefined; chargedMicros: number },
): Promise<void> {
  const { takenTokens, spendCapShare, budgetShare } = input.reservation;
  if (spendCapShare) {
    const { keyId, micros } = spendCapShare;
    deps.spendCapHolds.finish({ keyId, shareMicros: micros, chargedMicros: input.chargedMicros });
  }
  // Like the token budgets, a failure to update the shared budgets (Redis away) must not fail a paid call: the share
  // then lapses with its lease.
  if (budgetShare) {
    await deps.spendBudgets.finish({ share: budgetShare, chargedMicros: input.chargedMicros }).catch(() => undefined);
  }
  if (!takenTokens) return;
  const actualTokens = input.usage ? input.usage.inputTokens + input.usage.outputTokens : 0;
  // Not awaited: the corrections leave now, ahead of the answer (the next call's take on this node is sent after
  // them, on the same connection), and an answer need not wait a Redis round trip for what only paces later calls.
  void settleTokens(deps, takenTokens, actualTokens).catch(() => undefined);
}

/**
 * The output limit per choice that a token budget can admit at all: a call estimated above the smallest budget would
 * wait forever, so its output limit is lowered to fit (like a balance that affords less); one whose input alone does
 * not fit is refused.
 */
function fitOutputToTokenLimits(input: {
  requested: number;
  estimate: InputEstimate;
  choiceCount: number;
  limits: readonly TokenLimit[];
}): number {
  const largest = findLargestAdmissibleTokens(input.limits);
  if (largest === undefined) return input.requested;
  const outputRoom = Math.floor((largest - input.estimate.likelyTokens) / input.choiceCount);
  if (outputRoom < 1) {
    const smallest = input.limits.find((limit) => limit.limitPerMinute === largest) ?? input.limits[0]!;
    throw refuseOversizedCall(smallest, input.estimate.likelyTokens);
  }
  return Math.min(input.requested, outputRoom);
}

/**
 * The spend cap and the balance: a share of what the key's cap leaves (cap − spent − shares of calls in flight), then
 * a hold of at most that share; or 403 (cap reached) or 402 (not even the likely input affordable).
 */
async function holdCredits(
  deps: Pick<ReserveCreditsDeps, 'creditHolds' | 'spendCapHolds' | 'spendBudgets' | 'clock'>,
  input: {
    caller: Caller;
    model: CatalogModel;
    holdId: string;
    estimate: InputEstimate;
    choiceCount: number;
    maxOutputTokensPerChoice: number;
  },
): Promise<Pick<Reservation, 'hold' | 'spendCapShare' | 'budgetShare'>> {
  const { caller, model } = input;
  const plan = planHold(model, {
    input: input.estimate,
    maxOutputTokensPerChoice: input.maxOutputTokensPerChoice,
    choiceCount: input.choiceCount,
  });
  const spendCapShare = takeSpendCapShare(deps, { caller, plan });
  let budgetShare: BudgetShare | undefined;
  try {
    budgetShare = await takeKeyBudgetShare(deps, {
      caller,
      shareId: input.holdId,
      desiredMicros: spendCapShare?.micros ?? plan.desiredMicros,
      minimumMicros: plan.minimumMicros,
    });
  } catch (error) {
    if (spendCapShare) {
      deps.spendCapHolds.finish({ keyId: spendCapShare.keyId, shareMicros: spendCapShare.micros, chargedMicros: 0 });
    }
    throw error;
  }
  const hold = await deps.creditHolds.reserve({
    userId: caller.userId,
    holdId: input.holdId,
    desiredMicros: budgetShare?.micros ?? spendCapShare?.micros ?? plan.desiredMicros,
    minimumMicros: plan.minimumMicros,
  });
  if (budgetShare && !hold) await deps.spendBudgets.finish({ share: budgetShare, chargedMicros: 0 });
  if (hold) {
    if (!spendCapShare) return { hold, spendCapShare, budgetShare };
    // The share never needs to exceed the hold: the capture is capped by the hold.
    const keyId = spendCapShare.keyId;
    deps.spendCapHolds.finish({ keyId, shareMicros: spendCapShare.micros - hold.heldMicros, chargedMicros: 0 });
    return { hold, spendCapShare: { ...spendCapShare, micros: hold.heldMicros }, budgetShare };
  }
  if (spendCapShare) {
    deps.spendCapHolds.finish({ keyId: spendCapShare.keyId, shareMicros: spendCapShare.micros, chargedMicros: 0 });
  }
  const available = await deps.creditHolds.availableMicros(caller.userId);
  throw new InsufficientCreditsError(
    negativeBalanceMessage(available) ??
      `Your balance (${formatUsd(Math.max(available, 0))} USD available) does not cover this request: its input of about ${input.estimate.likelyTokens} tokens costs about ${formatUsd(plan.likelyInputMicros)} USD, plus at least one output token. Top up your balance to continue.`,
  );
}

function takeSpendCapShare(
  deps: Pick<ReserveCreditsDeps, 'spendCapHolds'>,
  input: { caller: Caller; plan: HoldPlan },
): Reservation['spendCapShare'] {
  const { key } = input.caller;
  if (key.spendCapMicros === null) return undefined;
  const micros = deps.spendCapHolds.take({
    keyId: key.id,
    capMicros: key.spendCapMicros,
    spentMicros: key.spentMicros,
    desiredMicros: input.plan.desiredMicros,
    minimumMicros: input.plan.minimumMicros,
  });
  if (micros === undefined) {
    throw new PermissionDeniedError(`This API key has reached its spend cap of ${formatUsd(key.spendCapMicros)} USD.`, {
      code: 'key_spend_cap_reached',
    });
  }
  return { keyId: key.id, micros };
}
