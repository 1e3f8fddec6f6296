import { geminiAdapter } from '../gemini/gemini-adapter.ts';
import type { ProviderAdapter, UpstreamTarget } from '../provider-adapter.ts';
import { joinUrl } from '../shared/join-url.ts';

/**
 * Google Vertex AI: the Gemini API's request, response, stream and error bodies at a project- and location-scoped
 * address, with an OAuth access token as a bearer token instead of `x-goog-api-key`. The route's base URL is the
 * endpoint (`https://<location>-aiplatform.googleapis.com`) and its options name the project and location, which
 * make the location root `<endpoint>/v1/projects/<project>/locations/<location>`; calls go to
 * `<root>/publishers/google/models/<model>:generateContent`, or `:streamGenerateContent?alt=sse` to stream. A target
 * without those options is taken to be the location root already.
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
  return joinUrl(locationRoot(target), `publishers/google/models/${model}:${method}`);
}

function locationRoot(target: UpstreamTarget): string {
  const project = target.options?.vertex_project;
  const location = target.options?.vertex_location;
  if (project === undefined || location === undefined) return target.baseUrl;
  return joinUrl(
    target.baseUrl,
    `v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}`,
  );
}
