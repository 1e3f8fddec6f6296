import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import { openAiQuirks } from '../openai/openai-quirks.ts';
import type { ProviderAdapter, UpstreamTarget } from '../provider-adapter.ts';
import { joinUrl } from '../shared/join-url.ts';

/** The api-version used when a route sets none: the latest generally available version of the data-plane API. */
export const defaultAzureApiVersion = '2024-10-21';

const dialect = createOpenAiDialectAdapter('azure', openAiQuirks);

/**
 * Azure OpenAI: OpenAI's Chat Completions dialect at a deployment URL. The route's base URL is the resource endpoint
 * (`https://<resource>.openai.azure.com`), its upstream model is the deployment name, and its api-version goes in the
 * query string; the key goes in the `api-key` header instead of a bearer token. Bodies, streams and errors are
 * OpenAI's (Azure adds `prompt_filter_results`, a first stream chunk without choices, and `content_filter_results`,
 * which the dialect converters pass over), so only the address and the header differ.
 * @see https://learn.microsoft.com/azure/ai-foundry/openai/reference#chat-completions
 */
export const azureAdapter: ProviderAdapter = {
  ...dialect,
  buildRequest: (input) => {
    const built = dialect.buildRequest(input);
    const { authorization: _bearer, ...headers } = built.headers;
    return {
      url: buildDeploymentUrl(input.target),
      headers: input.target.credential === undefined ? headers : { ...headers, 'api-key': input.target.credential },
      body: built.body,
    };
  },
};

function buildDeploymentUrl(target: UpstreamTarget): string {
  const deployment = encodeURIComponent(target.upstreamModel);
  const query = new URLSearchParams({ 'api-version': target.options?.api_version ?? defaultAzureApiVersion });
  return joinUrl(target.baseUrl, `openai/deployments/${deployment}/chat/completions?${query.toString()}`);
}
