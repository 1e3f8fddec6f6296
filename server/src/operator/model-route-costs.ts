import type { ModelRates } from '../catalog/apply-pricing-rule.ts';
import { describeMargin, type Margin } from '../catalog/describe-margin.ts';
import { findRouteCost, type EnteredRouteCost, type ListRates, type RouteCost } from '../catalog/route-cost.ts';
import type { Database } from '../db/database.ts';
import { findDeepestDiscountBasisPoints } from '../db/deepest-discount.ts';
import { listModels } from '../db/models.ts';
import { listRoutes } from '../db/routes.ts';
import type { ModelRow } from '../db/schema.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { formatUsd } from '../lib/money.ts';

/** One route of a model as the margin sees it. */
export type RouteWithCost = { id: string; provider: string; cost: RouteCost; isHealthy: boolean };

/**
 * The routes of a model with their costs at the given list price. The server reads its route table and this node's
 * health (`http/api/operator-models.ts`); the CLI reads the stored routes (`listStoredRouteCosts`).
 */
export type RouteCostSource = (model: ListRates & { id: string; provider: string | null }) => Promise<RouteWithCost[]>;

/**
 * A model without a route of its own is served by its vendor's own API (its environment or sandbox route), which
 * bills the list price; that is the cost a new model is checked against.
 */
export function vendorRouteAtListPrice(model: ListRates & { id: string; provider: string | null }): RouteWithCost {
  return {
    id: `vendor:${model.id}`,
    provider: model.provider ?? 'unknown',
    cost: findRouteCost({}, model),
    isHealthy: true,
  };
}

/** The stored routes of a model (enabled ones, all counted healthy), or its vendor's own API when it has none. */
export function listStoredRouteCosts(db: Database): RouteCostSource {
  return async (model) => {
    const rows = (await listRoutes(db)).filter((row) => row.model_id === model.id && row.enabled === 1);
    const routes = rows.map((row) => {
      const entered: EnteredRouteCost = {
        inputCostMicros: row.input_cost_micros ?? undefined,
        outputCostMicros: row.output_cost_micros ?? undefined,
        cachedInputCostMicros: row.cached_input_cost_micros ?? undefined,
        perRequestCostMicros: row.per_request_cost_micros ?? undefined,
      };
      return { id: row.id, provider: row.provider, cost: findRouteCost(entered, model), isHealthy: true };
    });
    return routes.length > 0 ? routes : [vendorRouteAtListPrice(model)];
  };
}

/**
 * Refuses a price (or discount) at which every sale of the model loses money against its cheapest route, after the
 * deepest discount an account can have, unless the operator confirmed it. Returns the margin either way.
 */
export async function checkAboveCost(
  deps: { db: Database; nowMs: number; routeCosts: RouteCostSource },
  input: {
    model: ListRates & { id: string; provider: string | null };
    price: ModelRates;
    isConfirmed: boolean;
    /** A discount being set that is deeper than any in force (a plan or contract being changed), basis points. */
    discountBasisPoints?: number;
  },
): Promise<Margin> {
  const deepest = Math.max(
    await findDeepestDiscountBasisPoints(deps.db, { nowMs: deps.nowMs }),
    input.discountBasisPoints ?? 0,
  );
  const margin = describeMargin({
    kind: input.model.kind,
    price: input.price,
    routes: await deps.routeCosts(input.model),
    deepestDiscountBasisPoints: deepest,
  });
  if (margin.isBelowCost && !input.isConfirmed) {
    throw new InvalidRequestError(
      `At this price \`${input.model.id}\` sells below the cost of every route: ${formatUsd(margin.discountedPriceMicros)} ` +
        `USD after a ${deepest / 100}% discount against ${formatUsd(margin.cheapestCostMicros ?? 0)} USD at the ` +
        `cheapest route (for 10M input + 1M output tokens, or one image). Set \`confirm_below_cost\` to sell at a loss.`,
      { param: 'confirm_below_cost', code: 'below_cost' },
    );
  }
  return margin;
}

/**
 * Refuses a plan or contract discount that would newly sell models below the cost of every route (models already
 * below cost at the deepest discount in force are flagged on the console and in `model list` instead), unless the
 * operator confirmed it. Retired models are not sold and do not count.
 */
export async function checkDiscountAboveCost(
  deps: { db: Database; nowMs: number; routeCosts: RouteCostSource },
  input: { discountBasisPoints: number; isConfirmed: boolean },
): Promise<void> {
  if (input.isConfirmed || input.discountBasisPoints === 0) return;
  const inForce = await findDeepestDiscountBasisPoints(deps.db, { nowMs: deps.nowMs });
  if (input.discountBasisPoints <= inForce) return;
  const losing: string[] = [];
  for (const row of await listModels(deps.db)) {
    if (row.retired_at !== null || row.enabled !== 1) continue;
    const routes = await deps.routeCosts(toModelListRates(row));
    const price = {
      inputMicros: row.input_rate_micros,
      outputMicros: row.output_rate_micros,
      cachedInputMicros: row.cached_input_rate_micros,
      perRequestMicros: row.per_request_micros,
    };
    const at = (deepestDiscountBasisPoints: number) =>
      describeMargin({ kind: row.kind, price, routes, deepestDiscountBasisPoints }).isBelowCost;
    if (at(input.discountBasisPoints) && !at(inForce)) losing.push(row.id);
  }
  if (losing.length === 0) return;
  const named = losing.slice(0, 5).map((id) => `\`${id}\``);
  throw new InvalidRequestError(
    `A ${input.discountBasisPoints / 100}% discount sells ${losing.length} model(s) below the cost of every route ` +
      `(${named.join(', ')}${losing.length > 5 ? ', …' : ''}). Set \`confirm_below_cost\` to allow it.`,
    { param: 'confirm_below_cost', code: 'below_cost' },
  );
}

/** A model row's list rates, as the route costs take them. */
export function toModelListRates(row: ModelRow): ListRates & { id: string; provider: string | null } {
  return {
    id: row.id,
    kind: row.kind,
    provider: row.provider,
    listInputRateMicros: row.list_input_rate_micros,
    listOutputRateMicros: row.list_output_rate_micros,
    listCachedInputRateMicros: row.list_cached_input_rate_micros,
    listPerRequestMicros: row.list_per_request_micros,
    cacheWriteRateBasisPoints: row.cache_write_rate_basis_points,
  };
}
