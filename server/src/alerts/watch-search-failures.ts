import { searchEngineNames, type SearchEngine } from '../search/search-engine.ts';
import type { OperatorAlerts } from './operator-alerts.ts';

/** Consecutive failed searches after which the operators are told. */
export const searchFailuresBeforeAlert = 5;

/**
 * The search engine with a failure count around it: `searchFailuresBeforeAlert` failures in a row (searches the
 * client cancelled do not count) raise an operator alert; any success resets the count. The results and errors
 * pass through unchanged.
 */
export function watchSearchFailures(
  engine: SearchEngine,
  deps: { alerts: OperatorAlerts; consoleUrl: string },
): SearchEngine {
  let failuresInARow = 0;
  return {
    id: engine.id,
    search: async (input) => {
      try {
        const outcome = await engine.search(input);
        failuresInARow = 0;
        return outcome;
      } catch (error) {
        if (!input.signal.aborted) failuresInARow += 1;
        if (failuresInARow >= searchFailuresBeforeAlert) {
          deps.alerts.raise(`search:${engine.id}`, {
            kind: 'search-failing',
            failureCount: failuresInARow,
            engine: engine.id === 'none' ? 'web search (not configured)' : searchEngineNames[engine.id],
            consoleUrl: deps.consoleUrl,
          });
        }
        throw error;
      }
    },
  };
}
