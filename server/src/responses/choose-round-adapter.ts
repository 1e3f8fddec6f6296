import type { Route } from '../catalog/route-table.ts';
import type { NativeSearchProviderId } from '../config/config.ts';
import { createAnthropicSearchAdapter } from '../providers/anthropic/anthropic-search-adapter.ts';
import { createGeminiSearchAdapter } from '../providers/gemini/gemini-search-adapter.ts';
import { createOpenAiResponsesAdapter } from '../providers/openai/openai-responses-adapter.ts';
import type { ProviderAdapter } from '../providers/provider-adapter.ts';
import type { ResponsePlan } from './convert-responses-request.ts';
import { webSearchFunctionName } from './web-search-tool.ts';

/**
 * Which adapter a route's round goes through. OpenAI routes always use OpenAI's own Responses API; every other route
 * its chat adapter. When the round offers web search and the operator lets the route's vendor search itself
 * (NATIVE_WEB_SEARCH), the vendor's search tool replaces the gateway's search function: OpenAI `web_search`, Anthropic's
 * `web_search` server tool, Gemini's `googleSearch` grounding. The choice is per route, so a failover to another
 * vendor searches the gateway's way.
 */
export function chooseRoundAdapter(input: {
  plan: ResponsePlan;
  nativeSearchProviders: readonly NativeSearchProviderId[];
  isSearchOffered: boolean;
  searchesLeft: number;
}): (route: Route) => ProviderAdapter | undefined {
  const adapters = new Map<Route['provider'], ProviderAdapter | undefined>();
  const create = (provider: Route['provider']): ProviderAdapter | undefined => {
    const settings = input.plan.webSearch;
    const isNative =
      settings !== undefined &&
      input.isSearchOffered &&
      input.nativeSearchProviders.some((native) => native === provider);
    const search = isNative
      ? { replacedFunctionName: webSearchFunctionName, tool: settings.vendorTool, maxSearches: input.searchesLeft }
      : undefined;
    switch (provider) {
      case 'openai':
        return createOpenAiResponsesAdapter({ reasoningSummary: input.plan.reasoningSummary, nativeSearch: search });
      case 'anthropic':
        return search ? createAnthropicSearchAdapter(search) : undefined;
      case 'gemini':
        return search ? createGeminiSearchAdapter(search) : undefined;
      default:
        return undefined;
    }
  };
  return (route) => {
    if (!adapters.has(route.provider)) adapters.set(route.provider, create(route.provider));
    return adapters.get(route.provider);
  };
}
