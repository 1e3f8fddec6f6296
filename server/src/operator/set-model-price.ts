import type { ModelPriceRequest, PriceChange } from '../../../contract/operator.ts';
import type { PriceList } from '../catalog/price-list.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { findModel, updateModelPrice } from '../db/models.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import { parseOptionalUsdAmountMicros, parseUsdAmountMicros } from '../billing/parse-amounts.ts';
import { checkAboveCost, toModelListRates, type RouteCostSource } from './model-route-costs.ts';
import { toPriceChangeView } from './to-price-change-view.ts';

export type SetModelPriceDeps = {
  db: Database;
  clock: Clock;
  priceList: Pick<PriceList, 'reload'>;
  routeCosts: RouteCostSource;
};

/**
 * Sets a model's live price from now on, the same way as the CLI's `model set-price`: the price list row and its
 * history entry in one transaction, then every node reloads the price list (this one at once), so billing and the
 * models page show the new price together. Omitted fields keep their value; null clears an optional one. A price
 * below the cost of every route (after the deepest discount) is refused unless `confirm_below_cost` is set.
 */
export async function setModelPrice(
  deps: SetModelPriceDeps,
  input: { modelId: string; request: ModelPriceRequest },
): Promise<PriceChange> {
  const model = await findModel(deps.db, input.modelId);
  if (!model) throw new NotFoundError(`There is no model \`${input.modelId}\` in the catalogue.`, { param: 'model' });
  const { request } = input;
  const pick = (value: number | null | undefined, current: number | null) => (value === undefined ? current : value);
  // Two changes in the same millisecond would share the history's key: the later one moves on by a millisecond.
  const effectiveAt = Math.max(deps.clock.nowMs(), model.price_effective_at + 1);
  const change = {
    modelId: model.id,
    effectiveAt,
    inputRateMicros:
      request.input_usd_per_million === undefined
        ? model.input_rate_micros
        : parseUsdAmountMicros(request.input_usd_per_million, 'input_usd_per_million'),
    outputRateMicros:
      request.output_usd_per_million === undefined
        ? model.output_rate_micros
        : parseUsdAmountMicros(request.output_usd_per_million, 'output_usd_per_million'),
    cachedInputRateMicros: pick(
      parseOptionalUsdAmountMicros(request.cached_input_usd_per_million, 'cached_input_usd_per_million'),
      model.cached_input_rate_micros,
    ),
    perRequestMicros: pick(
      parseOptionalUsdAmountMicros(request.usd_per_request, 'usd_per_request'),
      model.per_request_micros,
    ),
    reason: request.reason ?? 'set by operator (console)',
  };
  await checkAboveCost(
    { db: deps.db, nowMs: deps.clock.nowMs(), routeCosts: deps.routeCosts },
    {
      model: toModelListRates(model),
      price: {
        inputMicros: change.inputRateMicros,
        outputMicros: change.outputRateMicros,
        cachedInputMicros: change.cachedInputRateMicros,
        perRequestMicros: change.perRequestMicros,
      },
      isConfirmed: request.confirm_below_cost === true,
    },
  );
  await updateModelPrice(deps.db, change);
  await bumpCacheVersion(deps.db, 'catalog');
  await deps.priceList.reload();
  return toPriceChangeView({
    model_id: change.modelId,
    effective_at: change.effectiveAt,
    input_rate_micros: change.inputRateMicros,
    output_rate_micros: change.outputRateMicros,
    cached_input_rate_micros: change.cachedInputRateMicros,
    per_request_micros: change.perRequestMicros,
    reason: change.reason,
  });
}
