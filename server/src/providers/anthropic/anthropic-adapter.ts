import type { ProviderAdapter } from '../provider-adapter.ts';
import { joinUrl } from '../shared/join-url.ts';
import { convertRequest } from './convert-request.ts';
import { convertResponse } from './convert-response.ts';
import { convertStream } from './convert-stream.ts';
import { parseAnthropicError } from './errors.ts';

const anthropicVersion = '2023-06-01';

/**
 * Anthropic Messages: the route's base URL is the API root (`https://api.anthropic.com`); calls go to
 * `<root>/v1/messages` with `x-api-key` and `anthropic-version`.
 * @see https://docs.anthropic.com/en/api/messages
 */
export const anthropicAdapter: ProviderAdapter = {
  id: 'anthropic',
  buildRequest: ({ request, target, isStreaming }) => ({
    url: joinUrl(target.baseUrl, 'v1/messages'),
    headers: {
      'content-type': 'application/json',
      accept: isStreaming ? 'text/event-stream' : 'application/json',
      'anthropic-version': anthropicVersion,
      ...(target.credential === undefined ? {} : { 'x-api-key': target.credential }),
    },
    body: JSON.stringify(convertRequest({ request, target, isStreaming })),
  }),
  parseResponse: convertResponse,
  parseStream: convertStream,
  parseError: parseAnthropicError,
};
