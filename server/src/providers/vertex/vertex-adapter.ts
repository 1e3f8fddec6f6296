import { geminiAdapter } from '../gemini/gemini-adapter.ts';
import type { ProviderAdapter, UpstreamTarget } from '../provider-adapter.ts';
import { joinUrl } from '../shared/join-url.ts';

/**
 * Google Vertex AI: the Gemini API's request, response, stream and error bodies at a project- and location-scoped
 * address, with an OAuth access token as a bearer token instead of `x-goog-api-key`. The route's base URL here is the
 * location root, `https://<location>-aiplatform.googleapis.com/v1/projects/<project>/locations/<location>`, which the
 * route table composes from the route's endpoint, project and location; calls go to
 * `<root>/publishers/google/models/<model>:generateContent`, or `:streamGenerateContent?alt=sse` to stream.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent
 */
export const vertexAdapter: ProviderAdapter = {
  ...geminiAdapter,
  id: 'vertex',
  buildRequest: (input) => {
    const built = geminiAdapter.buildRequest(input);
    const { 'x-goog-api-key': _apiKey, ...headers } = built.headers;
    const credential = input.target.credential;
    return {
      url: buildModelUrl(input.target, input.isStreaming),
      headers: credential === undefined ? headers : { ...headers, authorization: `Bearer ${credential}` },
      body: built.body,
    };
  },
};

function buildModelUrl(target: UpstreamTarget, isStreaming: boolean): string {
  const model = encodeURIComponent(target.upstreamModel.replace(/^(?:publishers\/google\/)?models\//, ''));
  const method = isStreaming ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return joinUrl(target.baseUrl, `publishers/google/models/${model}:${method}`);
}
