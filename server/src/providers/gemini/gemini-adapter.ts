import type { ProviderAdapter, UpstreamTarget } from '../provider-adapter.ts';
import { joinUrl } from '../shared/join-url.ts';
import { convertRequest } from './convert-request.ts';
import { convertResponse } from './convert-response.ts';
import { convertStream } from './convert-stream.ts';
import { parseGeminiError } from './errors.ts';

/**
 * Gemini API: the route's base URL is the API root (`https://generativelanguage.googleapis.com`); calls go to
 * `<root>/v1beta/models/<model>:generateContent`, or `:streamGenerateContent?alt=sse` to stream, with
 * `x-goog-api-key`.
 * @see https://ai.google.dev/api/generate-content
 */
export const geminiAdapter: ProviderAdapter = {
  id: 'gemini',
  buildRequest: ({ request, target, isStreaming }) => ({
    url: buildUrl(target, isStreaming),
    headers: {
      'content-type': 'application/json',
      accept: isStreaming ? 'text/event-stream' : 'application/json',
      ...(target.credential === undefined ? {} : { 'x-goog-api-key': target.credential }),
    },
    body: JSON.stringify(convertRequest(request)),
  }),
  parseResponse: convertResponse,
  parseStream: convertStream,
  parseError: parseGeminiError,
};

function buildUrl(target: UpstreamTarget, isStreaming: boolean): string {
  const model = encodeURIComponent(target.upstreamModel.replace(/^models\//, ''));
  const method = isStreaming ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return joinUrl(target.baseUrl, `v1beta/models/${model}:${method}`);
}
