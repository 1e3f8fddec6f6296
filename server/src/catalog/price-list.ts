import { createSerialReload } from '../lib/serial-reload.ts';
import type { Database } from '../db/database.ts';
import { listModels } from '../db/models.ts';
import type { ModelRow } from '../db/schema.ts';
import { isProviderId, type ProviderId } from '../providers/provider-id.ts';

/** A catalogue model with its live price, as billing and the models page read it. Money in integer micros. */
export type CatalogModel = {
  id: string;
  displayName: string;
  family: string;
  kind: 'text' | 'image' | 'embedding';
  contextLength: number;
  maxOutputTokens: number;
  inputRateMicros: number;
  outputRateMicros: number;
  cachedInputRateMicros: number | null;
  perRequestMicros: number | null;
  /**
   * An account's discount (basis points) on the token rates above, set by `AccountTerms.priceModel`: costs apply it
   * inside their one rounding (lib/money.ts). Absent (no discount) in the price list itself.
   */
  discountBasisPoints?: number;
  /** A prompt-cache write's price as a share of the input rate (12,500 = 1.25×); absent or null: the input rate. */
  cacheWriteRateBasisPoints?: number | null;
  listInputRateMicros: number;
  listOutputRateMicros: number;
  listCachedInputRateMicros: number | null;
  listPerRequestMicros: number | null;
  supportsTools: boolean;
  supportsVision: boolean;
  /** Further capabilities (absent: not offered). */
  supportsJsonSchema?: boolean;
  supportsReasoning?: boolean;
  supportsWebSearch?: boolean;
  /**
   * The vendor whose own API serves the model (its environment and sandbox routes) and the model's id there; absent
   * on a row not filled yet (its seed entry's vendor applies).
   */
  provider?: ProviderId | undefined;
  upstreamModel?: string;
  priceEffectiveAtMs: number;
  createdAtMs: number;
};

/** A model the operator retired: gone from the price list, its callers told which model replaces it. */
export type RetiredModel = { id: string; successorId: string | null };

/** The live price list held in memory; `reload` swaps it atomically after a change in the database. */
export type PriceList = {
  find: (modelId: string) => CatalogModel | undefined;
  list: () => readonly CatalogModel[];
  /** A retired model by id (undefined when the model is live or unknown). */
  findRetired: (modelId: string) => RetiredModel | undefined;
  reload: () => Promise<void>;
};

export async function loadPriceList(db: Database): Promise<PriceList> {
  let byId = new Map<string, CatalogModel>();
  let ordered: readonly CatalogModel[] = [];
  let retired = new Map<string, RetiredModel>();
  const reload = createSerialReload(async () => {
    const rows = await listModels(db);
    const models = rows.filter((row) => row.enabled === 1 && row.retired_at === null).map(toCatalogModel);
    byId = new Map(models.map((model) => [model.id, model]));
    ordered = models;
    retired = new Map(
      rows
        .filter((row) => row.retired_at !== null)
        .map((row) => [row.id, { id: row.id, successorId: row.successor_id }]),
    );
  });
  await reload();
  return {
    find: (modelId) => byId.get(modelId),
    list: () => ordered,
    findRetired: (modelId) => retired.get(modelId),
    reload,
  };
}

function toCatalogModel(row: ModelRow): CatalogModel {
  return {
    id: row.id,
    displayName: row.display_name,
    family: row.family,
    kind: row.kind,
    contextLength: row.context_length,
    maxOutputTokens: row.max_output_tokens,
    inputRateMicros: row.input_rate_micros,
    outputRateMicros: row.output_rate_micros,
    cachedInputRateMicros: row.cached_input_rate_micros,
    perRequestMicros: row.per_request_micros,
    cacheWriteRateBasisPoints: row.cache_write_rate_basis_points,
    listInputRateMicros: row.list_input_rate_micros,
    listOutputRateMicros: row.list_output_rate_micros,
    listCachedInputRateMicros: row.list_cached_input_rate_micros,
    listPerRequestMicros: row.list_per_request_micros,
    supportsTools: row.supports_tools === 1,
    supportsVision: row.supports_vision === 1,
    supportsJsonSchema: row.supports_json_schema === 1,
    supportsReasoning: row.supports_reasoning === 1,
    supportsWebSearch: row.supports_web_search === 1,
    provider: row.provider !== null && isProviderId(row.provider) ? row.provider : undefined,
    upstreamModel: row.upstream_model ?? row.id,
    priceEffectiveAtMs: row.price_effective_at,
    createdAtMs: row.created_at,
  };
}
