import { createSerialReload } from '../lib/serial-reload.ts';
import type { CatalogModel } from '../catalog/price-list.ts';
import { listAccountModelPrices, listAccountTerms } from '../db/account-terms.ts';
import type { Database } from '../db/database.ts';
import type { AccountModelPriceRow } from '../db/schema.ts';
import { listActiveSubscriptions } from '../db/subscriptions.ts';
import type { Clock } from '../lib/clock.ts';
import { applyDiscountMicros } from '../lib/money.ts';
import { findAccountLimits, type AccountLimits, type StandardLimits } from '../limits/account-limits.ts';

/**
 * What an account pays and how fast it may call, held in memory for the request path: the operator's contract
 * discount, per-model account prices and request and token budgets, and the discount of the account's active
 * subscription.
 * Every node reloads it when the `account_terms` cache version moves (a change by the operator, a purchase or a
 * renewal); a subscription's end is checked against the clock, so it needs no reload.
 */
export type AccountTerms = {
  /** The discount that applies to the account's prices now, percent: the larger of its plan's and its contract's. */
  accountDiscountPercent: (userId: string) => number;
  /**
   * The model at the account's rates: its own price where the operator set one, and the discount as
   * `discountBasisPoints`, which every cost applies inside its one rounding (a per-request price comes discounted).
   */
  priceModel: (userId: string, model: CatalogModel) => CatalogModel;
  /** The operator's request budget for the whole account, or undefined for the standard per-key limits. */
  requestsPerMinute: (userId: string) => number | undefined;
  /** The operator's token budget (input plus output) for the whole account, or undefined for none. */
  tokensPerMinute: (userId: string) => number | undefined;
  /** The account's key ceilings and shared budgets: the operator's terms where set, the standard otherwise. */
  limitsOf: (userId: string) => AccountLimits;
  reload: () => Promise<void>;
};

type Snapshot = {
  contractBasisPoints: Map<string, number>;
  requestsPerMinute: Map<string, number>;
  tokensPerMinute: Map<string, number>;
  modelPrices: Map<string, Map<string, AccountModelPriceRow>>;
  subscriptions: Map<string, { basisPoints: number; expiresAtMs: number }>;
};

export async function loadAccountTerms(deps: {
  db: Database;
  clock: Clock;
  standardLimits: StandardLimits;
}): Promise<AccountTerms> {
  let snapshot = await readSnapshot(deps);
  const planBasisPoints = (userId: string) => {
    const subscription = snapshot.subscriptions.get(userId);
    return subscription && subscription.expiresAtMs > deps.clock.nowMs() ? subscription.basisPoints : 0;
  };
  const discountBasisPoints = (userId: string) =>
    Math.max(planBasisPoints(userId), snapshot.contractBasisPoints.get(userId) ?? 0);
  return {
    accountDiscountPercent: (userId) => discountBasisPoints(userId) / 100,
    priceModel: (userId, model) => {
      const ownPrice = snapshot.modelPrices.get(userId)?.get(model.id);
      // An account price is itself the negotiated rate: the contract discount does not apply on top of it, the
      // subscription's does.
      const basisPoints = ownPrice ? planBasisPoints(userId) : discountBasisPoints(userId);
      if (!ownPrice && basisPoints === 0) return model;
      // Token rates stay undiscounted: the discount is applied inside the cost's one rounding (lib/money.ts). A
      // per-request price is one amount, discounted (and rounded) here once.
      const perRequestMicros = ownPrice ? ownPrice.per_request_micros : model.perRequestMicros;
      return {
        ...model,
        inputRateMicros: ownPrice?.input_rate_micros ?? model.inputRateMicros,
        outputRateMicros: ownPrice?.output_rate_micros ?? model.outputRateMicros,
        cachedInputRateMicros: ownPrice ? ownPrice.cached_input_rate_micros : model.cachedInputRateMicros,
        perRequestMicros: perRequestMicros === null ? null : applyDiscountMicros(perRequestMicros, basisPoints),
        discountBasisPoints: basisPoints,
      };
    },
    requestsPerMinute: (userId) => snapshot.requestsPerMinute.get(userId),
    tokensPerMinute: (userId) => snapshot.tokensPerMinute.get(userId),
    limitsOf: (userId) =>
      findAccountLimits(deps.standardLimits, {
        requestsPerMinute: snapshot.requestsPerMinute.get(userId),
        tokensPerMinute: snapshot.tokensPerMinute.get(userId),
      }),
    reload: createSerialReload(async () => {
      snapshot = await readSnapshot(deps);
    }),
  };
}

async function readSnapshot(deps: { db: Database; clock: Clock }): Promise<Snapshot> {
  const [terms, prices, subscriptions] = await Promise.all([
    listAccountTerms(deps.db),
    listAccountModelPrices(deps.db),
    listActiveSubscriptions(deps.db, deps.clock.nowMs()),
  ]);
  const modelPrices = new Map<string, Map<string, AccountModelPriceRow>>();
  for (const price of prices) {
    const byModel = modelPrices.get(price.user_id) ?? new Map<string, AccountModelPriceRow>();
    byModel.set(price.model_id, price);
    modelPrices.set(price.user_id, byModel);
  }
  return {
    contractBasisPoints: new Map(terms.map((row) => [row.user_id, row.contract_discount_basis_points])),
    requestsPerMinute: new Map(
      terms.flatMap((row) => (row.requests_per_minute === null ? [] : [[row.user_id, row.requests_per_minute]])),
    ),
    tokensPerMinute: new Map(
      terms.flatMap((row) => (row.tokens_per_minute === null ? [] : [[row.user_id, row.tokens_per_minute]])),
    ),
    modelPrices,
    subscriptions: new Map(
      subscriptions.map((row) => [
        row.user_id,
        { basisPoints: row.discount_basis_points, expiresAtMs: row.expires_at },
      ]),
    ),
  };
}
