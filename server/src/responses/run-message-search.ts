import type { Message } from '../anthropic-api/message-object.ts';
import type { MessagesRequest } from '../anthropic-api/messages-request.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import type { Admission } from '../pipeline/admit-call.ts';
import type { Caller } from '../pipeline/authenticate.ts';
import type { SearchEngine, SearchResult } from '../search/search-engine.ts';
import type { ResponsePlan } from './convert-responses-request.ts';
import { convertSearchResponse } from './convert-search-response.ts';
import type { MessagesWebSearch } from './read-messages-web-search.ts';
import type { ResponseObject } from './response-object.ts';
import type { ResponseSink } from './response-sink.ts';
import { runResponsePlan, type ResponseDeps } from './run-response.ts';

/**
 * `POST /v1/messages` with the `web_search` server tool: the request runs through the Responses orchestrator, which
 * offers every model the gateway's search, bills the results as input tokens and settles once; its Response becomes
 * an Anthropic Message with search blocks and citations (docs/messages.md §Web search). The rounds run unstreamed:
 * a failure is thrown to the caller, to be answered in Anthropic's shape. The vendors' own search
 * (NATIVE_WEB_SEARCH) is not used, since its results carry no titles to put in `web_search_tool_result`.
 */
export async function runMessageSearch(
  deps: ResponseDeps,
  input: {
    caller: Caller;
    requestId: string;
    messagesRequest: MessagesRequest;
    chatRequest: ChatRequest;
    search: MessagesWebSearch;
    identity: { id: string; model: string };
    signal: AbortSignal;
    setHeaders: ResponseSink['setHeaders'];
    admission?: Admission;
  },
): Promise<{ message: Message; routeId: string | undefined } | undefined> {
  const results = new Map<string, SearchResult>();
  let answer: { response: ResponseObject; routeId: string | undefined } | undefined;
  const sink: ResponseSink = {
    signal: input.signal,
    setHeaders: input.setHeaders,
    sendResponse: (response, origin) => {
      answer = { response, routeId: origin.routeId };
    },
    awaitStream: () => () => undefined,
    sendEvent: () => true,
    waitForDrain: async () => undefined,
    isStreamOpen: false,
    endStream: () => undefined,
  };
  await runResponsePlan(
    { ...deps, searchEngine: recordResults(deps.searchEngine, results), nativeSearchProviders: [] },
    {
      caller: input.caller,
      plan: toPlan(input),
      requestId: input.requestId,
      sink,
      endpoint: 'messages',
      admission: input.admission,
    },
  );
  if (answer === undefined) return undefined;
  return {
    message: convertSearchResponse(answer.response, { ...input.identity, results }),
    routeId: answer.routeId,
  };
}

/** The engine's results by URL, so the message can give each source its title, date and cited text. */
function recordResults(engine: SearchEngine, results: Map<string, SearchResult>): SearchEngine {
  return {
    id: engine.id,
    search: async (searchInput) => {
      const outcome = await engine.search(searchInput);
      for (const result of outcome.results) results.set(result.url, result);
      return outcome;
    },
  };
}

function toPlan(input: {
  messagesRequest: MessagesRequest;
  chatRequest: ChatRequest;
  search: MessagesWebSearch;
}): ResponsePlan {
  const { stream: _stream, stream_options: _options, max_tokens: maxTokens, ...chatRequest } = input.chatRequest;
  const hasClientTools = (chatRequest.tools?.length ?? 0) > 0;
  const isAny = input.messagesRequest.tool_choice?.type === 'any';
  return {
    chatRequest,
    webSearch: input.search.settings,
    isSearchForced: input.search.isForced || (isAny && !hasClientTools),
    reasoningSummary: undefined,
    toolOrigins: new Map(),
    maxOutputTokens: maxTokens ?? input.messagesRequest.max_tokens,
    isStreaming: false,
    // Echoed only in the Response object, which the client never sees.
    settings: {
      instructions: null,
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: chatRequest.parallel_tool_calls ?? true,
      temperature: chatRequest.temperature ?? null,
      top_p: chatRequest.top_p ?? null,
      max_output_tokens: input.messagesRequest.max_tokens,
      metadata: {},
      reasoning: null,
      text: { format: { type: 'text' } },
    },
  };
}
