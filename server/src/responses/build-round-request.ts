import type { ChatMessage, ChatRequest } from '../openai-api/chat-request.ts';
import { measureChatRequest } from '../pipeline/measure-chat-request.ts';
import type { RequestSize } from '../pipeline/reserve-credits.ts';
import type { ResponsePlan } from './convert-responses-request.ts';
import {
  citationInstruction,
  createWebSearchFunctionTool,
  maxQueryLength,
  webSearchFunctionName,
} from './web-search-tool.ts';

/** How the gateway searches for this response: through a tool the model calls, or once, from the input. */
export type SearchMode = 'tool' | 'derived';

/**
 * The chat request of one model round: the conversation so far, the client's tools, and — while searches are left —
 * the gateway's web search function first in the list. `tool_choice` naming web search forces the first round to
 * search; `required` is satisfied once a search ran.
 */
export function buildRoundRequest(
  plan: ResponsePlan,
  input: {
    messages: ChatMessage[];
    isSearchOffered: boolean;
    searchCount: number;
    maxOutputTokens: number | undefined;
  },
): ChatRequest {
  const base = plan.chatRequest;
  const clientTools = base.tools ?? [];
  const tools = input.isSearchOffered ? [createWebSearchFunctionTool(), ...clientTools] : clientTools;
  let toolChoice = base.tool_choice ?? 'auto';
  if (plan.isSearchForced) {
    toolChoice = input.searchCount === 0 ? { type: 'function', function: { name: webSearchFunctionName } } : 'auto';
  } else if (toolChoice === 'required' && input.searchCount > 0) {
    toolChoice = 'auto';
  }
  const { tools: _tools, tool_choice: _toolChoice, parallel_tool_calls: parallel, ...rest } = base;
  return {
    ...rest,
    messages: input.messages,
    ...(tools.length > 0 ? { tools, tool_choice: toolChoice } : {}),
    ...(tools.length > 0 && parallel !== undefined ? { parallel_tool_calls: parallel } : {}),
    ...(input.maxOutputTokens === undefined ? {} : { max_completion_tokens: input.maxOutputTokens }),
  };
}

/** The system message that gives a model without tool calls the results of the search the gateway ran for it. */
export function createSearchResultsMessage(modelText: string): ChatMessage {
  return { role: 'system', content: `${modelText}\n\n${citationInstruction}` };
}

/** The query for a model that cannot call tools: the text of the last user message, clipped. */
export function deriveSearchQuery(messages: readonly ChatMessage[]): string | undefined {
  for (const message of [...messages].reverse()) {
    if (message.role !== 'user') continue;
    const text =
      typeof message.content === 'string'
        ? message.content
        : message.content
            .flatMap((part) => (part.type === 'text' && 'text' in part ? [String(part.text)] : []))
            .join(' ');
    const query = text.replace(/\s+/g, ' ').trim().slice(0, maxQueryLength);
    if (query !== '') return query;
  }
  return undefined;
}

/**
 * The size the credit hold must cover: every round of the response together, since one hold pays for all of them.
 * With web search each round re-sends the conversation plus all results so far; rounds are at most one more than
 * the searches. When a route may let its vendor search (NATIVE_WEB_SEARCH), each search is held at the larger
 * `vendorSearchResultBytes`: the vendor decides how much of what it found the model reads, and bills it as input.
 */
export function measureResponseRequest(
  plan: ResponsePlan,
  input: { searchMode: SearchMode | undefined; isVendorSearchPossible: boolean },
): RequestSize {
  const withTool = buildRoundRequest(plan, {
    messages: plan.chatRequest.messages,
    isSearchOffered: input.searchMode === 'tool',
    searchCount: 0,
    maxOutputTokens: undefined,
  });
  const base = measureChatRequest(withTool);
  const requestedMaxOutputTokens = plan.maxOutputTokens;
  if (!plan.webSearch || input.searchMode === undefined) return { ...base, requestedMaxOutputTokens };
  const resultBytes = input.isVendorSearchPossible
    ? Math.max(plan.webSearch.maxResultBytes, vendorSearchResultBytes)
    : plan.webSearch.maxResultBytes;
  const perSearchBytes = resultBytes + searchOverheadBytes;
  if (input.searchMode === 'derived') {
    return {
      ...base,
      textBytes: base.textBytes + perSearchBytes,
      messageCount: base.messageCount + 1,
      requestedMaxOutputTokens,
    };
  }
  const searches = plan.webSearch.maxSearches;
  const rounds = searches + 1;
  // Round k carries the base request and k searches' results: the sum over k = 0..searches.
  const searchBytes = (perSearchBytes * searches * (searches + 1)) / 2;
  return {
    textBytes: base.textBytes * rounds + searchBytes,
    messageCount: base.messageCount * rounds + searches * (searches + 1),
    imageCount: base.imageCount * rounds,
    requestedMaxOutputTokens,
  };
}

/**
 * What a vendor's own search is held at, per search: OpenAI bills its mini models a fixed 8,000-token block of search
 * content, and one Anthropic search is often 10,000–20,000 input tokens (at one token per byte in the hold).
 */
const vendorSearchResultBytes = 24_000;

/** The query, the call's JSON, the heading and the citation rule around each search's results. */
const searchOverheadBytes = 2 * maxQueryLength + 600;
