import { Counter, type Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.ts';
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
  /** The last failure, for the operator: engine, kind, status and time; never the query. */
  lastFailure: () => { kind: string; status: number | undefined; atMs: number } | undefined;
};

/**
 * Wraps the engine so that no search fails silently: each outcome is counted in `/metrics`
 * (`gateway_web_search_total{engine, outcome}`), each failure is logged (engine, kind, status, engine code; never the
 * query text), and repeated failures turn the status to `failing`, which `/readyz` reports.
 */
export function watchSearchEngine(
  engine: SearchEngine,
  deps: { logger: Pick<Logger, 'warn'>; registry: Registry; clock: Clock; isConfigured: boolean },
): { engine: SearchEngine; health: WebSearchHealth } {
  const searches = new Counter({
    name: 'gateway_web_search_total',
    help: 'Web searches by engine and outcome (ok, empty, timeout, unavailable, rejected)',
    labelNames: ['engine', 'outcome'],
    registers: [deps.registry],
  });
  let consecutiveFailures = 0;
  let lastFailure: ReturnType<WebSearchHealth['lastFailure']>;
  const watched: SearchEngine = {
    id: engine.id,
    search: async (input) => {
      try {
        const outcome = await engine.search(input);
        consecutiveFailures = 0;
        searches.inc({ engine: engine.id, outcome: outcome.results.length === 0 ? 'empty' : 'ok' });
        return outcome;
      } catch (error) {
        if (!(error instanceof SearchEngineError)) throw error;
        // A search the client's own disconnect cut short says nothing about the engine.
        if (!input.signal.aborted) {
          consecutiveFailures += 1;
          lastFailure = { kind: error.kind, status: error.status, atMs: deps.clock.nowMs() };
        }
        searches.inc({ engine: engine.id, outcome: error.kind });
        deps.logger.warn(
          { engine: engine.id, kind: error.kind, status: error.status, engineCode: error.engineCode },
          `web search failed: ${error.message}`,
        );
        throw error;
      }
    },
  };
  const status = (): WebSearchStatus => {
    if (!deps.isConfigured) return 'not_configured';
    return consecutiveFailures >= failuresBeforeDegraded ? 'failing' : 'ok';
  };
  return { engine: watched, health: { status, lastFailure: () => lastFailure } };
}
