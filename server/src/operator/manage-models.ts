import type { CreateModelRequest, UpdateModelRequest } from '../../../contract/operator-models.ts';
import { applyPricingRule, type ModelRates, type PricingRule } from '../catalog/apply-pricing-rule.ts';
import type { PriceList } from '../catalog/price-list.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { findModel, setModelRetired, writeModel, type PriceChange } from '../db/models.ts';
import type { ModelRow } from '../db/schema.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import { checkAboveCost, type RouteCostSource } from './model-route-costs.ts';
import { parseModelRequest } from './parse-model-request.ts';

/** What managing the catalogue needs: the database, time, the default pricing rule and the routes' costs. */
export type ManageModelsDeps = {
  db: Database;
  clock: Clock;
  pricingRule: PricingRule;
  routeCosts: RouteCostSource;
  /** This node's price list, reloaded at once (other nodes follow the cache version within a second). */
  priceList: Pick<PriceList, 'reload'>;
};

/**
 * Adds a model: checked whole (family, provider, prices, margin) before one transaction writes it with its first
 * price history entry. Our price fields not given follow the default pricing rule, against the vendor's own API
 * at its list price (the route a new model gets).
 */
export async function addModel(deps: ManageModelsDeps, request: CreateModelRequest): Promise<ModelRow> {
  if (await findModel(deps.db, request.id)) {
    throw new ConflictError(`The catalogue already has a model \`${request.id}\` (retired models keep their id).`, {
      param: 'id',
      code: 'model_exists',
    });
  }
  const parsed = parseModelRequest(request, { kind: request.kind, row: undefined });
  const nowMs = deps.clock.nowMs();
  const model = {
    id: request.id,
    kind: request.kind,
    provider: parsed.changes.provider ?? null,
    ...rateColumns(parsed.list, rateNames.listRates),
  };
  const defaults = applyPricingRule(deps.pricingRule, { list: parsed.list, cost: parsed.list });
  const price = { ...defaults, ...parsed.ours };
  await checkAboveCost(
    { db: deps.db, nowMs, routeCosts: deps.routeCosts },
    { model, price, isConfirmed: request.confirm_below_cost === true },
  );
  const { changes } = parsed;
  const row = {
    id: request.id,
    kind: request.kind,
    display_name: request.display_name,
    family: changes.family ?? request.family,
    context_length: request.context_length,
    max_output_tokens: request.max_output_tokens,
    provider: changes.provider ?? null,
    upstream_model: request.upstream_model ?? request.id,
    supports_tools: changes.supports_tools ?? 0,
    supports_vision: changes.supports_vision ?? 0,
    supports_json_schema: changes.supports_json_schema ?? 0,
    supports_reasoning: changes.supports_reasoning ?? 0,
    supports_web_search: changes.supports_web_search ?? 0,
    ...rateColumns(price, rateNames.row),
    ...rateColumns(parsed.list, rateNames.listRow),
    price_effective_at: nowMs,
    enabled: 1,
    created_at: nowMs,
  };
  const priceChange = toPriceChange(request.id, { price, effectiveAt: nowMs, reason: request.reason ?? 'model added' });
  if (!(await writeModel(deps.db, { isNew: true, row, priceChange }))) {
    throw new ConflictError(`The catalogue already has a model \`${request.id}\`.`, {
      param: 'id',
      code: 'model_exists',
    });
  }
  await announceCatalogChange(deps);
  return getModelRow(deps.db, request.id);
}

/** Changes a model's definition, list price or our price; a price change is recorded in its history. */
export async function updateModel(
  deps: ManageModelsDeps,
  input: { modelId: string; request: UpdateModelRequest },
): Promise<ModelRow> {
  const row = await getModelRow(deps.db, input.modelId);
  const { request } = input;
  const parsed = parseModelRequest(request, { kind: row.kind, row });
  const current: ModelRates = {
    inputMicros: row.input_rate_micros,
    outputMicros: row.output_rate_micros,
    cachedInputMicros: row.cached_input_rate_micros,
    perRequestMicros: row.per_request_micros,
  };
  const price = { ...current, ...parsed.ours };
  const isPriceChanged = Object.keys(parsed.ours).length > 0;
  const isListChanged = Object.keys(request).some((key) => key.startsWith('list_'));
  const nowMs = deps.clock.nowMs();
  if (isPriceChanged || isListChanged) {
    const model = {
      id: row.id,
      kind: row.kind,
      provider: parsed.changes.provider ?? row.provider,
      ...rateColumns(parsed.list, rateNames.listRates),
    };
    await checkAboveCost(
      { db: deps.db, nowMs, routeCosts: deps.routeCosts },
      { model, price, isConfirmed: request.confirm_below_cost === true },
    );
  }
  // Two changes in the same millisecond would share the history's key: the later one moves on by a millisecond.
  const effectiveAt = Math.max(nowMs, row.price_effective_at + 1);
  const priceChange = isPriceChanged
    ? toPriceChange(row.id, { price, effectiveAt, reason: request.reason ?? 'set by operator' })
    : undefined;
  const changes = { ...parsed.changes, ...rateColumns(parsed.list, rateNames.listRow) };
  await writeModel(deps.db, { isNew: false, modelId: row.id, changes, priceChange });
  await announceCatalogChange(deps);
  return getModelRow(deps.db, row.id);
}

/**
 * Retires a model: it leaves `/v1/models` and the models page, and requests for it get a `model_not_found` naming
 * the successor. Refused for a model that a retired model names as its successor, and for a successor that is
 * itself retired or unknown.
 */
export async function retireModel(
  deps: ManageModelsDeps,
  input: { modelId: string; successorId: string | null },
): Promise<ModelRow> {
  const row = await getModelRow(deps.db, input.modelId);
  if (input.successorId !== null) {
    const successor = await findModel(deps.db, input.successorId);
    if (!successor || successor.retired_at !== null || successor.id === row.id) {
      throw new InvalidRequestError(
        `The successor \`${input.successorId}\` must be another model of the catalogue that is not retired.`,
        { param: 'successor' },
      );
    }
  }
  const result = await setModelRetired(deps.db, {
    modelId: row.id,
    retiredAtMs: row.retired_at ?? deps.clock.nowMs(),
    successorId: input.successorId,
  });
  if (result && result.namedBy.length > 0) {
    throw new InvalidRequestError(
      `\`${row.id}\` is the successor of ${result.namedBy.map((id) => `\`${id}\``).join(', ')}: give them another ` +
        'successor (or restore them) before retiring it.',
      { param: 'model', code: 'model_is_successor' },
    );
  }
  await announceCatalogChange(deps);
  return getModelRow(deps.db, row.id);
}

/** Brings a retired model back to the price list, at its last price. */
export async function restoreModel(deps: ManageModelsDeps, modelId: string): Promise<ModelRow> {
  const row = await getModelRow(deps.db, modelId);
  await setModelRetired(deps.db, { modelId: row.id, retiredAtMs: null, successorId: null });
  await announceCatalogChange(deps);
  return getModelRow(deps.db, row.id);
}

export async function getModelRow(db: Database, modelId: string): Promise<ModelRow> {
  const row = await findModel(db, modelId);
  if (!row) throw new NotFoundError(`There is no model \`${modelId}\` in the catalogue.`, { param: 'model' });
  return row;
}

async function announceCatalogChange(deps: ManageModelsDeps): Promise<void> {
  await bumpCacheVersion(deps.db, 'catalog');
  await deps.priceList.reload();
}

/** The four rates' names where they are written: our price and the list price in a row, the route costs' view. */
const rateNames = {
  row: {
    inputMicros: 'input_rate_micros',
    outputMicros: 'output_rate_micros',
    cachedInputMicros: 'cached_input_rate_micros',
    perRequestMicros: 'per_request_micros',
  },
  listRow: {
    inputMicros: 'list_input_rate_micros',
    outputMicros: 'list_output_rate_micros',
    cachedInputMicros: 'list_cached_input_rate_micros',
    perRequestMicros: 'list_per_request_micros',
  },
  listRates: {
    inputMicros: 'listInputRateMicros',
    outputMicros: 'listOutputRateMicros',
    cachedInputMicros: 'listCachedInputRateMicros',
    perRequestMicros: 'listPerRequestMicros',
  },
} as const satisfies Record<string, Record<keyof ModelRates, string>>;

type RateColumns<Names extends Record<keyof ModelRates, string>> = {
  [Field in keyof ModelRates as Names[Field]]: ModelRates[Field];
};

/** `rates` under the names of one of `rateNames`. */
function rateColumns<Names extends Record<keyof ModelRates, string>>(
  rates: ModelRates,
  names: Names,
): RateColumns<Names> {
  const fields = ['inputMicros', 'outputMicros', 'cachedInputMicros', 'perRequestMicros'] as const;
  return Object.fromEntries(fields.map((field) => [names[field], rates[field]])) as RateColumns<Names>;
}

function toPriceChange(
  modelId: string,
  input: { price: ModelRates; effectiveAt: number; reason: string },
): PriceChange {
  return {
    modelId,
    effectiveAt: input.effectiveAt,
    inputRateMicros: input.price.inputMicros,
    outputRateMicros: input.price.outputMicros,
    cachedInputRateMicros: input.price.cachedInputMicros,
    perRequestMicros: input.price.perRequestMicros,
    reason: input.reason,
  };
}
