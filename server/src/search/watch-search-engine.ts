import { Counter, type Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { WebSearchHealthView } from '../../../contract/web-search-health.ts';
import type { Clock } from '../lib/clock.ts';
import { convertWebSearchReport, type WebSearchFailure, type WebSearchReport } from './convert-web-search-report.ts';
import { SearchEngineError } from './search-engine-error.ts';
import type { SearchEngine } from './search-engine.ts';

/** Consecutive failed searches after which `/readyz` reports web search as failing. */
export const failuresBeforeDegraded = 3;

/**
 * - `ok`: the last search (or none yet) worked.
 * - `failing`: the last `failuresBeforeDegraded` searches or more failed; the operator must look.
 * - `not_configured`: no engine is configured, every web search fails at once (SEARCH_ENGINE is not set).
 */
export type WebSearchStatus = 'ok' | 'failing' | 'not_configured';

export type WebSearchHealth = {
  status: () => WebSearchStatus;
  /** The last failure, for the operator: kind, status and time; never the query. */
  lastFailure: () => WebSearchFailure | undefined;
  /** As the operator console reads it (`GET /api/operator/web-search`). */
  report: () => WebSearchHealthView;
};

/** Where the engine is, for the operator's report. */
export type WebSearchSetup = { isConfigured: boolean; address: string | undefined; isSimulator: boolean };

/**
 * Wraps the engine so that no search fails silently: each outcome is counted in `/metrics`
 * (`gateway_web_search_total{engine, outcome}`), each failure is logged (engine, kind, status, engine code; never the
 * query text), and repeated failures turn the status to `failing`, which `/readyz` and the operator console report.
 */
export function watchSearchEngine(
  engine: SearchEngine,
  deps: { logger: Pick<Logger, 'warn'>; registry: Registry; clock: Clock; setup: WebSearchSetup },
): { engine: SearchEngine; health: WebSearchHealth } {
  const searches = new Counter({
    name: 'gateway_web_search_total',
    help: 'Web searches by engine and outcome (ok, empty, timeout, unavailable, rejected)',
    labelNames: ['engine', 'outcome'],
    registers: [deps.registry],
  });
  const tally = createSearchTally(deps.setup.isConfigured);
  const watched: SearchEngine = {
    id: engine.id,
    search: async (input) => {
      try {
        const outcome = await engine.search(input);
        tally.succeeded(deps.clock.nowMs());
        searches.inc({ engine: engine.id, outcome: outcome.results.length === 0 ? 'empty' : 'ok' });
        return outcome;
      } catch (error) {
        if (!(error instanceof SearchEngineError)) throw error;
        // A search the client's own disconnect cut short says nothing about the engine.
        if (!input.signal.aborted) tally.failed({ kind: error.kind, status: error.status, atMs: deps.clock.nowMs() });
        searches.inc({ engine: engine.id, outcome: error.kind });
        deps.logger.warn(
          { engine: engine.id, kind: error.kind, status: error.status, engineCode: error.engineCode },
          `web search failed: ${error.message}`,
        );
        throw error;
      }
    },
  };
  const report = (): WebSearchHealthView =>
    convertWebSearchReport({
      engine: engine.id,
      address: deps.setup.address,
      isSimulator: deps.setup.isSimulator,
      failuresBeforeFailing: failuresBeforeDegraded,
      ...tally.read(),
    });
  return {
    engine: watched,
    health: { status: () => tally.read().status, lastFailure: () => tally.read().lastFailure, report },
  };
}

type SearchTallyView = Omit<WebSearchReport, 'engine' | 'address' | 'isSimulator' | 'failuresBeforeFailing'>;

/** The counts behind the status: failures in a row and in all, the last failure and success, since when failing. */
function createSearchTally(isConfigured: boolean) {
  let failuresInARow = 0;
  let failureCount = 0;
  let failingSinceMs: number | undefined;
  let lastFailure: WebSearchFailure | undefined;
  let lastSuccessAtMs: number | undefined;
  return {
    succeeded: (atMs: number) => {
      failuresInARow = 0;
      failingSinceMs = undefined;
      lastSuccessAtMs = atMs;
    },
    failed: (failure: WebSearchFailure) => {
      failuresInARow += 1;
      failureCount += 1;
      lastFailure = failure;
      if (failuresInARow === failuresBeforeDegraded) failingSinceMs = failure.atMs;
    },
    read: (): SearchTallyView => {
      const isFailing = failuresInARow >= failuresBeforeDegraded;
      const status: WebSearchStatus = !isConfigured ? 'not_configured' : isFailing ? 'failing' : 'ok';
      return {
        status,
        failingSinceMs: status === 'failing' ? failingSinceMs : undefined,
        failuresInARow,
        failureCount,
        lastFailure,
        lastSuccessAtMs,
      };
    },
  };
}
