import type { WebSearchHealthView } from '../../../contract/web-search-health.ts';
import type { SearchEngineErrorKind } from './search-engine-error.ts';
import { searchEngineNames, type SearchEngine } from './search-engine.ts';

export type WebSearchFailure = { kind: SearchEngineErrorKind; status: number | undefined; atMs: number };

/** What the operator console shows of web search on this process (never a query). */
export type WebSearchReport = {
  engine: SearchEngine['id'];
  /** The engine's origin (no path, user or password); undefined for the sandbox simulator or no engine. */
  address: string | undefined;
  isSimulator: boolean;
  status: WebSearchHealthView['status'];
  /** When the search that turned the status to `failing` failed; undefined while not failing. */
  failingSinceMs: number | undefined;
  failuresInARow: number;
  /** Failed searches since this process started. */
  failureCount: number;
  lastFailure: WebSearchFailure | undefined;
  lastSuccessAtMs: number | undefined;
  failuresBeforeFailing: number;
};

/** Where the operator console sends an operator to set up or mend web search. */
const setupDoc = 'docs/web-search-engines.md#running-searxng-for-production';

/** The report as `GET /api/operator/web-search` gives it: times in ISO 8601, the engine's name, where the setup is. */
export function convertWebSearchReport(report: WebSearchReport): WebSearchHealthView {
  const toIso = (atMs: number | undefined) => (atMs === undefined ? null : new Date(atMs).toISOString());
  const lastFailure = report.lastFailure;
  return {
    engine: report.engine,
    engine_name: report.engine === 'none' ? null : searchEngineNames[report.engine],
    address: report.address ?? null,
    is_simulator: report.isSimulator,
    status: report.status,
    failing_since: toIso(report.failingSinceMs),
    failures_in_a_row: report.failuresInARow,
    failures_before_failing: report.failuresBeforeFailing,
    failure_count: report.failureCount,
    last_failure: lastFailure
      ? {
          at: new Date(lastFailure.atMs).toISOString(),
          kind: lastFailure.kind,
          http_status: lastFailure.status ?? null,
        }
      : null,
    last_success_at: toIso(report.lastSuccessAtMs),
    setup_doc: setupDoc,
  };
}
