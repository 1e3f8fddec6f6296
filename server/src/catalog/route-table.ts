import { createSerialReload } from '../lib/serial-reload.ts';
import type { Config } from '../config/config.ts';
import type { SeedModel } from '../config/seed-catalog.ts';
import type { Database } from '../db/database.ts';
import { listDisabledImplicitRouteIds } from '../db/disabled-implicit-routes.ts';
import { listRoutes } from '../db/routes.ts';
import type { RouteRow } from '../db/schema.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { isProviderId, type ProviderId } from '../providers/provider-id.ts';
import type { UpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';
import type { RouteOptions } from '../providers/vendor-definition.ts';
import type { CatalogModel, PriceList } from './price-list.ts';
import { providerEndpoints } from './provider-endpoints.ts';
import { readRouteOptions } from './route-settings.ts';
import { findRouteCost, type RouteCost } from './route-cost.ts';

/** One way to reach a model upstream. The credential is decrypted in memory only. */
export type Route = {
  id: string;
  modelId: string;
  provider: ProviderId;
  baseUrl: string;
  credential: string | undefined;
  upstreamModel: string;
  priority: number;
  weight: number;
  /** `database` (operator-managed), `environment` (a vendor key from the config) or `sandbox` (a simulator). */
  origin: 'database' | 'environment' | 'sandbox';
  /** What the upstream charges us, micro-USD per 1M tokens (or per image), when the operator entered it. */
  inputCostMicros?: number;
  outputCostMicros?: number;
  cachedInputCostMicros?: number;
  perRequestCostMicros?: number;
  /** What the route costs us for its model (entered, else the list price); set on every route the table builds. */
  cost?: RouteCost;
  /** Most calls in flight on this route per node. */
  maxConcurrency?: number;
  /** Overrides of the default upstream timeouts. */
  timeouts?: Partial<UpstreamTimeouts>;
  /** The accounts this route is reserved for (a dedicated channel); absent: every account. */
  reservedForUserIds?: readonly string[];
  /** The vendor's own settings (Azure's api-version, Vertex's project and location), checked when stored. */
  vendorOptions?: RouteOptions;
};

export type RouteTable = {
  /** Enabled routes of a model, best priority first. */
  routesFor: (modelId: string) => readonly Route[];
  /** Every enabled route of every model. */
  allRoutes: () => readonly Route[];
  /** The environment and sandbox routes the operator switched off; no request uses them. */
  disabledImplicitRoutes: () => readonly Route[];
  /** Whether every route of the model is a simulator. */
  isSimulated: (modelId: string) => boolean;
  reload: () => Promise<void>;
};

export type RouteTableDeps = {
  db: Database;
  config: Config;
  secretBox: SecretBox;
  priceList: PriceList;
  seedCatalog: readonly SeedModel[];
  /** Root URL of the running simulator in sandbox mode, else undefined. */
  simulatorUrl: string | undefined;
  /** Told once per route whose credential does not open with the master key; that route is left out. */
  onUnreadableCredential: (routeId: string) => void;
};

/**
 * Builds the routes of every model: operator routes from the database, then live vendor routes for vendors whose
 * credential is configured, and, in sandbox mode, a simulator route for each model that has no live route.
 */
export async function loadRouteTable(deps: RouteTableDeps): Promise<RouteTable> {
  let byModel = new Map<string, Route[]>();
  let disabledImplicit: Route[] = [];
  const seedById = new Map(deps.seedCatalog.map((model) => [model.id, model]));
  const reportedRouteIds = new Set<string>();
  // A row sealed under another master key must not stop every other route from loading.
  const openCredential = (row: RouteRow): { credential: string | undefined } | undefined => {
    if (!row.credential_ciphertext) return { credential: undefined };
    try {
      return { credential: deps.secretBox.open(row.credential_ciphertext) };
    } catch {
      if (!reportedRouteIds.has(row.id)) deps.onUnreadableCredential(row.id);
      reportedRouteIds.add(row.id);
      return undefined;
    }
  };
  const reload = createSerialReload(async () => {
    const next = new Map<string, Route[]>();
    const disabledIds = new Set(await listDisabledImplicitRouteIds(deps.db));
    const nextDisabled: Route[] = [];
    const add = (uncosted: Route) => {
      const model = deps.priceList.find(uncosted.modelId);
      const route = model ? { ...uncosted, cost: findRouteCost(uncosted, model) } : uncosted;
      if (route.origin !== 'database' && disabledIds.has(route.id)) nextDisabled.push(route);
      else next.set(route.modelId, [...(next.get(route.modelId) ?? []), route]);
    };
    for (const row of await listRoutes(deps.db)) {
      if (row.enabled !== 1 || !isProviderId(row.provider)) continue;
      const opened = openCredential(row);
      if (opened) add(convertRouteRow(row, { provider: row.provider, credential: opened.credential }));
    }
    for (const model of deps.priceList.list()) {
      const vendor = vendorOf(model, seedById.get(model.id));
      if (!vendor) continue;
      const endpoint = providerEndpoints[vendor.provider];
      const credential = endpoint.credentialKey ? deps.config.vendorCredentials[endpoint.credentialKey] : undefined;
      if (credential && endpoint.publicBaseUrl) {
        add(vendorRoute({ vendor, origin: 'environment', baseUrl: endpoint.publicBaseUrl, credential }));
      }
      if (deps.simulatorUrl && !next.has(model.id)) {
        const baseUrl = `${deps.simulatorUrl}${endpoint.simulatorPath}`;
        add(vendorRoute({ vendor, origin: 'sandbox', baseUrl, credential: 'sandbox-key' }));
      }
    }
    for (const routes of next.values()) routes.sort((left, right) => left.priority - right.priority);
    byModel = next;
    disabledImplicit = nextDisabled;
  });
  await reload();
  return {
    routesFor: (modelId) => byModel.get(modelId) ?? [],
    allRoutes: () => [...byModel.values()].flat(),
    disabledImplicitRoutes: () => disabledImplicit,
    isSimulated: (modelId) => {
      const routes = byModel.get(modelId) ?? [];
      return routes.length > 0 && routes.every((route) => route.origin === 'sandbox');
    },
    reload,
  };
}

function convertRouteRow(row: RouteRow, input: { provider: ProviderId; credential: string | undefined }): Route {
  const timeouts: Partial<UpstreamTimeouts> = {};
  if (row.connect_timeout_ms !== null) timeouts.connectTimeoutMs = row.connect_timeout_ms;
  if (row.first_byte_timeout_ms !== null) timeouts.firstByteTimeoutMs = row.first_byte_timeout_ms;
  if (row.idle_timeout_ms !== null) timeouts.idleTimeoutMs = row.idle_timeout_ms;
  const reservedForUserIds = (row.reserved_for_user_ids ?? '').split('\n').filter((id) => id !== '');
  return {
    id: row.id,
    modelId: row.model_id,
    provider: input.provider,
    baseUrl: row.base_url,
    credential: input.credential,
    upstreamModel: row.upstream_model,
    priority: row.priority,
    weight: row.weight,
    origin: 'database',
    ...(row.input_cost_micros === null ? {} : { inputCostMicros: row.input_cost_micros }),
    ...(row.output_cost_micros === null ? {} : { outputCostMicros: row.output_cost_micros }),
    ...(row.cached_input_cost_micros === null ? {} : { cachedInputCostMicros: row.cached_input_cost_micros }),
    ...(row.per_request_cost_micros === null ? {} : { perRequestCostMicros: row.per_request_cost_micros }),
    ...(row.max_concurrency === null ? {} : { maxConcurrency: row.max_concurrency }),
    ...(Object.keys(timeouts).length === 0 ? {} : { timeouts }),
    ...(reservedForUserIds.length === 0 ? {} : { reservedForUserIds }),
    ...(row.vendor_options === null ? {} : { vendorOptions: readRouteOptions(row.vendor_options) }),
  };
}

/** The vendor whose own API serves a model: stored with the model, or (rows seeded before 0040) its seed entry's. */
type ModelVendor = { modelId: string; provider: ProviderId; upstreamModel: string };

function vendorOf(model: CatalogModel, seed: SeedModel | undefined): ModelVendor | undefined {
  if (model.provider) {
    return { modelId: model.id, provider: model.provider, upstreamModel: model.upstreamModel ?? model.id };
  }
  return seed ? { modelId: model.id, provider: seed.provider, upstreamModel: seed.upstreamModel } : undefined;
}

function vendorRoute(input: {
  vendor: ModelVendor;
  origin: 'environment' | 'sandbox';
  baseUrl: string;
  credential: string;
}): Route {
  return {
    id: `${input.origin}:${input.vendor.modelId}`,
    modelId: input.vendor.modelId,
    provider: input.vendor.provider,
    baseUrl: input.baseUrl,
    credential: input.credential,
    upstreamModel: input.vendor.upstreamModel,
    priority: input.origin === 'environment' ? 100 : 1000,
    weight: 1,
    origin: input.origin,
  };
}
