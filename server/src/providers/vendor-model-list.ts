import type { ProviderId } from './provider-id.ts';
import { anthropicModelList } from './anthropic/list-models.ts';
import { geminiModelList } from './gemini/list-models.ts';
import { openAiModelList } from './openai/list-models.ts';
import { vendors } from './vendors.ts';

/** One page request of a vendor's model list: a GET with the vendor's own authentication headers. */
export type ModelListPageRequest = { url: string; headers: Record<string, string> };

/** The model ids one page lists (as the vendor's API takes them) and the next page's token, when there is one. */
export type ModelListPage = { modelIds: string[]; nextPageToken: string | undefined };

/**
 * How to read a vendor's list of the models it serves. Pure, like the adapters: `catalog/` sends the requests
 * through the one upstream HTTP client. `parsePage` returns undefined for a body that is not the vendor's list.
 */
export type VendorModelList = {
  buildPageRequest: (input: {
    baseUrl: string;
    credential: string | undefined;
    pageToken: string | undefined;
  }) => ModelListPageRequest;
  parsePage: (body: unknown) => ModelListPage | undefined;
};

/**
 * The model list of a vendor's API: Anthropic's and Gemini's own, `GET /models` for every OpenAI-dialect vendor;
 * undefined for vendors without one the gateway reads (BFL, Azure deployments, Vertex).
 */
export function findVendorModelList(provider: ProviderId): VendorModelList | undefined {
  if (provider === 'anthropic') return anthropicModelList;
  if (provider === 'gemini') return geminiModelList;
  if (provider === 'openai') return openAiModelList;
  if (provider === 'azure') return undefined;
  return 'quirks' in vendors[provider] ? openAiModelList : undefined;
}
