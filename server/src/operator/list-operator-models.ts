import type { OperatorModel } from '../../../contract/operator-models.ts';
import { describeMargin } from '../catalog/describe-margin.ts';
import type { Database } from '../db/database.ts';
import { findDeepestDiscountBasisPoints } from '../db/deepest-discount.ts';
import { listModels } from '../db/models.ts';
import type { ModelRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import { toModelListRates, type RouteCostSource, type RouteWithCost } from './model-route-costs.ts';

export type ListOperatorModelsDeps = { db: Database; clock: Clock; routeCosts: RouteCostSource };

/**
 * Every model, retired ones too, with its routes' costs and its margin after the deepest discount an account can
 * have; models that sell below the cost of every route are flagged (`is_below_cost`).
 */
export async function listOperatorModels(deps: ListOperatorModelsDeps): Promise<{ data: OperatorModel[] }> {
  const deepest = await findDeepestDiscountBasisPoints(deps.db, { nowMs: deps.clock.nowMs() });
  const views: OperatorModel[] = [];
  for (const row of await listModels(deps.db)) {
    views.push(toOperatorModel(row, { routes: await deps.routeCosts(toModelListRates(row)), deepest }));
  }
  return { data: views };
}

/** One model's view, as `listOperatorModels` builds it. */
export async function describeOperatorModel(deps: ListOperatorModelsDeps, row: ModelRow): Promise<OperatorModel> {
  const deepest = await findDeepestDiscountBasisPoints(deps.db, { nowMs: deps.clock.nowMs() });
  return toOperatorModel(row, { routes: await deps.routeCosts(toModelListRates(row)), deepest });
}

function toOperatorModel(row: ModelRow, input: { routes: RouteWithCost[]; deepest: number }): OperatorModel {
  const margin = describeMargin({
    kind: row.kind,
    price: {
      inputMicros: row.input_rate_micros,
      outputMicros: row.output_rate_micros,
      cachedInputMicros: row.cached_input_rate_micros,
      perRequestMicros: row.per_request_micros,
    },
    routes: input.routes,
    deepestDiscountBasisPoints: input.deepest,
  });
  const usd = (micros: number | null) => (micros === null ? null : microsToUsd(micros));
  return {
    id: row.id,
    display_name: row.display_name,
    family: row.family,
    kind: row.kind,
    context_length: row.context_length,
    max_output_tokens: row.max_output_tokens,
    provider: row.provider,
    upstream_model: row.upstream_model,
    supports_tools: row.supports_tools === 1,
    supports_vision: row.supports_vision === 1,
    supports_json_schema: row.supports_json_schema === 1,
    supports_reasoning: row.supports_reasoning === 1,
    supports_web_search: row.supports_web_search === 1,
    input_usd_per_million: microsToUsd(row.input_rate_micros),
    output_usd_per_million: microsToUsd(row.output_rate_micros),
    cached_input_usd_per_million: usd(row.cached_input_rate_micros),
    usd_per_request: usd(row.per_request_micros),
    list_input_usd_per_million: microsToUsd(row.list_input_rate_micros),
    list_output_usd_per_million: microsToUsd(row.list_output_rate_micros),
    list_cached_input_usd_per_million: usd(row.list_cached_input_rate_micros),
    list_usd_per_request: usd(row.list_per_request_micros),
    retired_at: row.retired_at === null ? null : new Date(row.retired_at).toISOString(),
    successor: row.successor_id,
    routes: input.routes.map((route) => ({
      route_id: route.id,
      provider: route.provider,
      is_healthy: route.isHealthy,
      basis: route.cost.basis,
      input_usd_per_million: microsToUsd(route.cost.inputMicros),
      output_usd_per_million: microsToUsd(route.cost.outputMicros),
      cached_input_usd_per_million: usd(route.cost.cachedInputMicros),
      usd_per_request: usd(route.cost.perRequestMicros),
    })),
    cheapest_route_usd: usd(margin.cheapestCostMicros),
    dearest_route_usd: usd(margin.dearestCostMicros),
    deepest_discount_percent: input.deepest / 100,
    margin_percent: margin.marginBasisPoints === null ? null : margin.marginBasisPoints / 100,
    is_below_cost: margin.isBelowCost,
  };
}
