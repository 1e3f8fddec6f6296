import type { ChatChunk, ChatCompletion } from '../../openai-api/chat-completion.ts';
import type { ProviderAdapter, SseEvent } from '../provider-adapter.ts';
import {
  createNativeSearchChunk,
  removeSearchFunction,
  type NativeSearchRequest,
  type WithNativeSearch,
} from '../shared/native-web-search.ts';
import { convertRequest } from './convert-request.ts';
import { convertResponse } from './convert-response.ts';
import { convertStream } from './convert-stream.ts';
import { geminiAdapter } from './gemini-adapter.ts';
import type { GeminiRequest } from './gemini-api.ts';
import { GroundingReader } from './read-grounding-metadata.ts';

/**
 * Gemini's Google Search grounding for a `/v1/responses` round whose operator lets Gemini search (NATIVE_WEB_SEARCH):
 * the chat adapter's request with the gateway's search function replaced by the `googleSearch` tool, and its answers
 * with the grounding read beside the chat conversion (`read-grounding-metadata.ts`). Gemini has no way to force a
 * search, to cap the number of searches or to filter domains: `tool_choice` naming web search, `max_tool_calls` and
 * `filters` do not reach it (docs/responses.md).
 *
 * A round that also offers the client's functions keeps the gateway's search function instead (the gateway searches):
 * Gemini 2.x refuses `googleSearch` beside function declarations ("Tool use with function calling is unsupported by
 * the model"), and Gemini 3 accepts the pair only with tool combination (`includeServerSideToolInvocations`), whose
 * `toolCall`/`toolResponse` parts must be sent back on the next turn — which a stateless gateway cannot do, since that
 * turn arrives as the client's `function_call_output` without them.
 * @see https://ai.google.dev/gemini-api/docs/google-search
 * @see https://ai.google.dev/gemini-api/docs/tool-combination
 */
export function createGeminiSearchAdapter(search: NativeSearchRequest): ProviderAdapter {
  return {
    id: 'gemini',
    buildRequest: (input) => {
      const { request } = removeSearchFunction(input.request, search);
      if ((request.tools ?? []).length > 0) return geminiAdapter.buildRequest(input);
      const built = geminiAdapter.buildRequest({ ...input, request });
      return { ...built, body: JSON.stringify(addSearchTool(convertRequest(request))) };
    },
    parseResponse: convertSearchResponse,
    parseStream: convertSearchStream,
    parseError: geminiAdapter.parseError,
  };
}

type SearchToolRequest = Omit<GeminiRequest, 'tools'> & {
  tools: Array<NonNullable<GeminiRequest['tools']>[number] | { googleSearch: Record<string, never> }>;
};

function addSearchTool(body: GeminiRequest): SearchToolRequest {
  return { ...body, tools: [...(body.tools ?? []), { googleSearch: {} }] };
}

function convertSearchResponse(input: Parameters<ProviderAdapter['parseResponse']>[0]): ChatCompletion {
  const completion = convertResponse(input);
  const reader = new GroundingReader();
  reader.read(input.body);
  const events = reader.finish();
  // A whole answer lists its searches first; citation offsets count from the start of its text either way.
  const ordered = [
    ...events.filter((event) => event.type === 'web_search'),
    ...events.filter((event) => event.type === 'url_citation'),
  ];
  const withSearch: WithNativeSearch<ChatCompletion> =
    ordered.length === 0 ? completion : { ...completion, nativeSearch: ordered };
  return withSearch;
}

/** The chat stream conversion, then the grounding, which Gemini sends with its last chunks. */
async function* convertSearchStream(input: Parameters<ProviderAdapter['parseStream']>[0]): AsyncGenerator<ChatChunk> {
  const reader = new GroundingReader();
  async function* observe(events: AsyncIterable<SseEvent>): AsyncGenerator<SseEvent> {
    for await (const event of events) {
      reader.read(event.data);
      yield event;
    }
  }
  yield* convertStream({ ...input, events: observe(input.events) });
  const events = reader.finish();
  if (events.length > 0) {
    yield createNativeSearchChunk(
      { id: input.id, created: input.createdUnixSeconds, model: input.requestedModel },
      events,
    );
  }
}
