import type { ProviderAdapter } from '../provider-adapter.ts';
import { joinUrl } from '../shared/join-url.ts';
import { convertResponsesRequest, type OpenAiResponsesOptions } from './convert-responses-request.ts';
import { convertResponsesResponse } from './convert-responses-response.ts';
import { convertResponsesStream } from './convert-responses-stream.ts';
import { parseDialectError } from './errors.ts';
import { openAiQuirks } from './openai-quirks.ts';

/**
 * OpenAI's own Responses API, for `/v1/responses` rounds on OpenAI routes: the route's base URL is the API root
 * (`https://api.openai.com/v1`), the call goes to `<root>/responses` with the bearer key. Answers come back as chat
 * completions and chunks, with the vendor's search events beside them (`shared/native-web-search.ts`), so the rest
 * of the round works as for every vendor. Errors have OpenAI's usual body.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export function createOpenAiResponsesAdapter(options: OpenAiResponsesOptions): ProviderAdapter {
  return {
    id: 'openai',
    buildRequest: ({ request, target, isStreaming }) => ({
      url: joinUrl(target.baseUrl, 'responses'),
      headers: {
        'content-type': 'application/json',
        accept: isStreaming ? 'text/event-stream' : 'application/json',
        ...(target.credential === undefined ? {} : { authorization: `Bearer ${target.credential}` }),
      },
      body: JSON.stringify(
        convertResponsesRequest({ request, upstreamModel: target.upstreamModel, isStreaming, options }),
      ),
    }),
    parseResponse: convertResponsesResponse,
    parseStream: convertResponsesStream,
    parseError: (input) => parseDialectError(input, openAiQuirks),
  };
}
