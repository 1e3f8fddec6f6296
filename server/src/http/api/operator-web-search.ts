import type { WebSearchHealthView } from '../../../../contract/web-search-health.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorWebSearchHandlerDeps = { webSearchHealth: { report: () => WebSearchHealthView } };

/** The operator's view of web search on the process that answers: engine, state, recent failures; never a query. */
export function createOperatorWebSearchHandlers(
  deps: OperatorWebSearchHandlerDeps,
): Pick<ApiHandlers, 'getWebSearchHealth'> {
  return { getWebSearchHealth: async () => deps.webSearchHealth.report() };
}
