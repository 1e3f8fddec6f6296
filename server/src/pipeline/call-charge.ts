import { priceRouteCost, type TokenUsage } from '../billing/pricing.ts';
import type { RouteCost } from '../catalog/route-cost.ts';
import type { Route } from '../catalog/route-table.ts';
import type { UsageRecordRow } from '../db/schema.ts';
import { recordFailedCall } from '../db/usage-records.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { SpendCapHolds } from '../limits/spend-cap-holds.ts';
import type { Caller } from './authenticate.ts';
import { finishReservation, type HeldCredit } from './reserve-credits.ts';
import { buildUsageCharge, settleCharge, type SettleChargeDeps, type Settlement } from './settle-charge.ts';

export type CallChargeDeps = SettleChargeDeps & {
  clock: Clock;
  rateLimiter: RateLimiter;
  spendCapHolds: SpendCapHolds;
};

/** The route that answered (or was tried last), as the usage record names it, with its cost when known. */
type RecordedRoute = Pick<Route, 'id' | 'provider'> & { cost?: RouteCost | undefined };

/** How a call that reached the client ends: what it used and costs, and how it went. */
export type CallOutcome = {
  /** The price of `usage` (or of the images); `settleCharge` never captures more than the hold. */
  costMicros: number;
  usage: TokenUsage;
  /** Undefined when the client left before a route answered. */
  route: RecordedRoute | undefined;
  status: 'completed' | 'interrupted';
  errorCode: string | null;
  timeToFirstTokenMs: number | null;
  imageCount: number;
};

/**
 * The one owner of a call's money from the moment its credit is held: the call ends through `settle` (charge what
 * was delivered) or `fail` (release everything, record the failure), once. Opened with `await using`, so an exit
 * that did neither (a throw between the hold and the answer, a bug) still releases the hold and records the call as
 * failed when the scope unwinds: no hold outlives its call (DESIGN §4, docs/billing.md).
 */
export type CallCharge = AsyncDisposable & {
  settle: (outcome: CallOutcome) => Promise<Settlement>;
  /**
   * A stream's delivery so far, as it would be settled if the node died now: read lazily when the node writes its
   * checkpoints (a few times a second, for all its streams together), so a chunk costs a map update only.
   */
  checkpoint: (outcome: () => CallOutcome) => void;
  fail: (failure: { errorCode: string; route?: RecordedRoute | undefined }) => Promise<void>;
};

/** What every usage record of the call shares. */
export type ChargedCall = {
  caller: Caller;
  requestId: string;
  modelId: string;
  endpoint: UsageRecordRow['endpoint'];
  startedAtMs: number;
  reservation: HeldCredit;
};

/** Opens the owner of a call's money right after its hold is taken; one small object per call, nothing per chunk. */
export function openCallCharge(deps: CallChargeDeps, call: ChargedCall): CallCharge {
  let isClosed = false;
  const { reservation } = call;

  const recordBase = () => {
    const nowMs = deps.clock.nowMs();
    return {
      request_id: call.requestId,
      user_id: call.caller.userId,
      api_key_id: call.caller.key.id,
      model_id: call.modelId,
      endpoint: call.endpoint,
      latency_ms: nowMs - call.startedAtMs,
      created_at: nowMs,
    };
  };

  const fail: CallCharge['fail'] = async (failure) => {
    isClosed = true;
    try {
      await deps.creditHolds.release(reservation.hold);
    } finally {
      await finishReservation(deps, { reservation, usage: undefined, chargedMicros: 0 });
    }
    await recordFailedCall(deps.db, {
      ...recordBase(),
      route_id: failure.route?.id ?? null,
      provider: failure.route?.provider ?? null,
      status: 'failed',
      error_code: failure.errorCode,
      input_tokens: 0,
      cached_tokens: 0,
      output_tokens: 0,
      reasoning_tokens: 0,
      image_count: 0,
      time_to_first_token_ms: null,
      cost_micros: 0,
      upstream_cost_micros: null,
    });
  };

  /** The usage record `settle` writes for an outcome (its cost is set by the charge, capped by the hold). */
  const chargedRecord = (outcome: CallOutcome) => {
    const { usage } = outcome;
    return {
      ...recordBase(),
      route_id: outcome.route?.id ?? null,
      provider: outcome.route?.provider ?? null,
      status: outcome.status,
      error_code: outcome.errorCode,
      input_tokens: usage.inputTokens,
      cached_tokens: usage.cachedInputTokens,
      output_tokens: usage.outputTokens,
      reasoning_tokens: usage.reasoningTokens,
      image_count: outcome.imageCount,
      time_to_first_token_ms: outcome.timeToFirstTokenMs,
      upstream_cost_micros: outcome.route?.cost
        ? priceRouteCost(outcome.route.cost, { usage, imageCount: outcome.imageCount })
        : null,
    };
  };

  return {
    settle: async (outcome) => {
      isClosed = true;
      let chargedMicros = 0;
      try {
        const settlement = await settleCharge(deps, {
          caller: call.caller,
          hold: reservation.hold,
          costMicros: outcome.costMicros,
          usage: chargedRecord(outcome),
        });
        chargedMicros = settlement.costMicros;
        return settlement;
      } finally {
        // After the charge is counted in the key's spending, so the spend cap share covers it until then.
        await finishReservation(deps, { reservation, usage: outcome.usage, chargedMicros });
      }
    },
    checkpoint: (outcome) => {
      if (isClosed || !deps.creditHolds.recordDelivery) return;
      deps.creditHolds.recordDelivery(reservation.hold, () => {
        const delivered = outcome();
        return buildUsageCharge(deps.ids, {
          caller: call.caller,
          hold: reservation.hold,
          costMicros: delivered.costMicros,
          usage: chargedRecord(delivered),
        }).charge;
      });
    },
    fail,
    [Symbol.asyncDispose]: async () => {
      if (!isClosed) await fail({ errorCode: 'internal_error' });
    },
  };
}

/** The usage record's code for a call that failed before any answer: the error's code, or the client leaving. */
export function describeFailedCall(error: unknown): string {
  return error instanceof GatewayError ? (error.code ?? error.type) : 'client_disconnected';
}
