import type { ProviderId } from '../provider-id.ts';
import type { ProviderAdapter } from '../provider-adapter.ts';
import { joinUrl } from '../shared/join-url.ts';
import { convertRequest } from './convert-request.ts';
import { convertResponse } from './convert-response.ts';
import { convertStream, createStreamConverter } from './convert-stream.ts';
import type { DialectQuirks } from './dialect-quirks.ts';
import { parseDialectError } from './errors.ts';
import { openAiQuirks } from './openai-quirks.ts';
import { relayOpenAiResponse } from './relay-response.ts';

/**
 * An adapter for any vendor that speaks OpenAI's Chat Completions dialect: the route's base URL is the API root
 * (`https://api.openai.com/v1`), the call goes to `<root>/chat/completions` with a bearer key when one is set.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function createOpenAiDialectAdapter(id: ProviderId, quirks: DialectQuirks): ProviderAdapter {
  return {
    id,
    buildRequest: ({ request, target, isStreaming }) => ({
      url: joinUrl(target.baseUrl, 'chat/completions'),
      headers: {
        'content-type': 'application/json',
        accept: isStreaming ? 'text/event-stream' : 'application/json',
        ...(target.credential === undefined ? {} : { authorization: `Bearer ${target.credential}` }),
      },
      body: JSON.stringify(convertRequest({ request, upstreamModel: target.upstreamModel, isStreaming, quirks })),
    }),
    parseResponse: (input) => convertResponse({ ...input, quirks }),
    parseStream: (input) => convertStream({ ...input, quirks }),
    createStreamConverter: (input) => createStreamConverter({ ...input, quirks }),
    parseError: (input) => parseDialectError(input, quirks),
  };
}

/**
 * OpenAI's own answers and stream chunks are forwarded as sent when they need no conversion (`relay-response.ts`,
 * `relay-chunk.ts`); other dialect
 * vendors' answers keep going through the converters, whose quirk hooks they need.
 */
export const openAiAdapter: ProviderAdapter = {
  ...createOpenAiDialectAdapter('openai', openAiQuirks),
  relayResponse: relayOpenAiResponse,
  parseStream: (input) => convertStream({ ...input, quirks: openAiQuirks, relaysChunks: true }),
  createStreamConverter: (input) => createStreamConverter({ ...input, quirks: openAiQuirks, relaysChunks: true }),
};
