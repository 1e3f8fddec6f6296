import { operatorErrors, type ApiEndpoint } from './api-endpoint.ts';
import { webSearchHealthSchema } from './web-search-health.ts';

/** Web search as the operator sees it (docs/web-search-engines.md). */
export const webSearchEndpoints = {
  getWebSearchHealth: {
    method: 'get',
    path: '/api/operator/web-search',
    summary: 'The web search engine, whether it works (as this process sees it) and its recent failures; never a query',
    auth: 'operator',
    response: {
      status: 200,
      description: 'The engine and its state',
      json: { name: 'WebSearchHealth', schema: webSearchHealthSchema },
    },
    errors: operatorErrors,
  },
} as const satisfies Record<string, ApiEndpoint>;
