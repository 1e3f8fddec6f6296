import { z } from 'zod';
import type { ChatTool } from '../openai-api/chat-request.ts';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';
import type { SearchResultsInput } from '../search/search-results-to-input.ts';

/** The function the gateway offers the model in place of a hosted `web_search` tool. */
export const webSearchFunctionName = 'web_search';

/** How much searching a `web_search` tool asks for (`search_context_size`). */
export type WebSearchSettings = {
  maxResults: number;
  /** UTF-8 budget of one search's results as model input. */
  maxResultBytes: number;
  /** Lower-case host names; when set, only results on these hosts (or their subdomains) are kept. */
  allowedDomains: readonly string[] | undefined;
  /** Lower-case host names whose results (and their subdomains') are dropped (Anthropic's `blocked_domains`). */
  blockedDomains?: readonly string[] | undefined;
  /** `include: ["web_search_call.action.sources"]`: list the result URLs on each `web_search_call`. */
  isSourcesIncluded: boolean;
  /** Searches one response may run (`max_tool_calls`, else 2); after the last one the model answers with what it has. */
  maxSearches: number;
  /** The client's tool settings as a vendor's own search takes them (NATIVE_WEB_SEARCH). */
  vendorTool: { search_context_size?: string; filters?: { allowed_domains: string[] }; user_location?: unknown };
};

export const contextSizes = {
  low: { maxResults: 3, maxResultBytes: 4_000 },
  medium: { maxResults: 5, maxResultBytes: 8_000 },
  high: { maxResults: 8, maxResultBytes: 16_000 },
} as const satisfies Record<'low' | 'medium' | 'high', { maxResults: number; maxResultBytes: number }>;

/** Searches one response runs unless `max_tool_calls` says otherwise. */
export const defaultMaxSearches = 2;

/**
 * The most searches `max_tool_calls` may ask for: the one credit hold covers every round, and each round re-sends the
 * results of every search before it, so the hold grows with the square of the searches.
 */
export const maxSearchesLimit = 5;

/** The longest query the gateway sends to an engine (engines clip further on their own). */
export const maxQueryLength = 400;

export const citationInstruction =
  'Cite the sources you use by their numbers in square brackets, like [1] or [2][3], right after the statement they support. Do not write the URLs yourself.';

export function createWebSearchFunctionTool(): ChatTool {
  return {
    type: 'function',
    function: {
      name: webSearchFunctionName,
      description: `Search the web for current information. Returns numbered sources. ${citationInstruction}`,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'The search query, in the language of the question.' } },
        required: ['query'],
        additionalProperties: false,
      },
    },
  };
}

const searchArgumentsSchema = z.object({ query: z.string() }).loose();

/** The query from the model's call arguments (`{"query": "…"}`), or undefined when they hold none. */
export function readSearchQuery(argumentsJson: string): string | undefined {
  const parsed = searchArgumentsSchema.safeParse(parseBodyText(argumentsJson));
  if (!parsed.success) return undefined;
  const query = parsed.data.query.replace(/\s+/g, ' ').trim();
  return query === '' ? undefined : query.slice(0, maxQueryLength);
}

/** What the model reads after a search: the numbered results and how to cite them, or why there are none. */
export function describeSearchOutcome(
  outcome: { kind: 'results'; input: SearchResultsInput } | { kind: 'empty' } | { kind: 'failed' },
  input: { query: string },
): string {
  const heading = `Web search for "${input.query}"`;
  if (outcome.kind === 'failed') {
    return `${heading} failed: the search engine is unavailable. Answer from your own knowledge and say that you could not search the web. Do not cite sources.`;
  }
  if (outcome.kind === 'empty' || outcome.input.sources.length === 0) {
    return `${heading} found nothing. Answer from your own knowledge and say that the search found no sources. Do not cite sources.`;
  }
  return `${heading}, results:\n\n${outcome.input.text}\n\n${citationInstruction}`;
}
