import type { ChatChunk, ChatCompletion } from '../../openai-api/chat-completion.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';

/**
 * What a vendor's own web search did in one answer (OpenAI `web_search`, Anthropic's `web_search` server tool, Gemini
 * grounding), when the operator lets the vendor search (docs/responses.md, "Vendor-native search"). Only the
 * `/v1/responses` path uses adapters that produce it; the chat adapters never do.
 *
 * - `web_search`: one search, with the URLs it found (only these may be cited).
 * - `url_citation`: a cited span of the answer text, in Unicode code points, counted from where the answer's text
 *   resumed after the last `web_search` before it (the start of the answer when there was none).
 */
export type NativeSearchEvent =
  | { type: 'web_search'; query: string; sourceUrls: readonly string[]; isCompleted: boolean }
  | { type: 'url_citation'; url: string; title: string; startIndex: number; endIndex: number };

/**
 * How a round lets the vendor search: the gateway's own search function (`replacedFunctionName`) is left out and the
 * vendor's search tool offered instead, with the client's settings where the vendor has them, at most `maxSearches`
 * times where the vendor can be told.
 */
export type NativeSearchRequest = {
  replacedFunctionName: string;
  tool: { search_context_size?: string; filters?: { allowed_domains: string[] }; user_location?: unknown };
  maxSearches: number;
};

/**
 * A chunk or completion with the vendor's search events, in the order they happened. A stream carries them on chunks
 * of their own (`choices: []`) placed where they happened among the text chunks; a completion lists all of them.
 */
export type WithNativeSearch<T extends ChatChunk | ChatCompletion> = T & { nativeSearch?: NativeSearchEvent[] };

export function readNativeSearch(value: ChatChunk | ChatCompletion): readonly NativeSearchEvent[] {
  return 'nativeSearch' in value && Array.isArray(value.nativeSearch)
    ? (value.nativeSearch as NativeSearchEvent[])
    : [];
}

/** A chunk that carries only search events, between the text chunks of a stream. */
export function createNativeSearchChunk(
  identity: { id: string; created: number; model: string },
  events: NativeSearchEvent[],
): WithNativeSearch<ChatChunk> {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [],
    nativeSearch: events,
  };
}

/**
 * The round's chat request without the gateway's search function, for a vendor whose own search tool replaces it;
 * `isSearchForced` when `tool_choice` named that function (the vendor adapter forces its own tool where it can).
 */
export function removeSearchFunction(
  request: ChatRequest,
  search: NativeSearchRequest,
): { request: ChatRequest; isSearchForced: boolean } {
  const tools = (request.tools ?? []).filter((tool) => tool.function.name !== search.replacedFunctionName);
  const choice = request.tool_choice;
  const isSearchForced = typeof choice === 'object' && choice.function.name === search.replacedFunctionName;
  const { tools: _tools, tool_choice: _choice, parallel_tool_calls: parallel, ...rest } = request;
  if (tools.length === 0) return { request: rest, isSearchForced };
  return {
    request: {
      ...rest,
      tools,
      ...(choice === undefined || isSearchForced ? {} : { tool_choice: choice }),
      ...(parallel === undefined ? {} : { parallel_tool_calls: parallel }),
    },
    isSearchForced,
  };
}
