import { readModelSyncSources } from '../../catalog/read-model-sync-sources.ts';
import { applyModelSync, previewModelSync, type ModelSyncDeps } from '../../operator/model-sync.ts';
import { getModelSyncSettings, setModelSyncSettings } from '../../operator/model-sync-schedule.ts';
import type { Dispatcher } from 'undici';
import type { ApiHandlers } from './endpoint-handler.ts';
import { liveRouteCosts, type OperatorModelHandlerDeps } from './operator-models.ts';

export type ModelSyncHandlerDeps = OperatorModelHandlerDeps & {
  /** The genai-prices data file a sync reads; undefined: the bundled data only. */
  priceDataUrl: string | undefined;
  upstream: { dispatcher: Dispatcher };
};

const syncTimeoutMs = 30_000;

/** The sync's sources as this node reaches them: its live routes, through the model upstreams' HTTP client. */
export function createModelSyncDeps(deps: ModelSyncHandlerDeps): ModelSyncDeps {
  return {
    ...deps,
    routeCosts: liveRouteCosts(deps),
    readSources: () =>
      readModelSyncSources({
        vendorDispatcher: deps.upstream.dispatcher,
        timeoutMs: syncTimeoutMs,
        priceDataUrl: deps.priceDataUrl,
        routes: () => deps.routeTable.allRoutes(),
      }),
  };
}

/** Model sync for the operator: preview, apply all or part, and the schedule's settings. */
export function createModelSyncHandlers(
  deps: ModelSyncHandlerDeps,
): Pick<ApiHandlers, 'previewModelSync' | 'applyModelSync' | 'getModelSyncSettings' | 'setModelSyncSettings'> {
  const sync = createModelSyncDeps(deps);
  return {
    previewModelSync: async () => previewModelSync(sync),
    applyModelSync: async ({ body }) => {
      const result = await applyModelSync(sync, body);
      await deps.routeTable.reload();
      return result;
    },
    getModelSyncSettings: async () => getModelSyncSettings(deps.db),
    setModelSyncSettings: async ({ body }) => setModelSyncSettings(deps, body),
  };
}
