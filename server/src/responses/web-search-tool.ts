import type { ChatTool } from '../openai-api/chat-request.ts';
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
  /** `include: ["web_search_call.action.sources"]`: list the result URLs on each `web_search_call`. */
  isSourcesIncluded: boolean;
};

export const contextSizes = {
  low: { maxResults: 3, maxResultBytes: 4_000 },
  medium: { maxResults: 5, maxResultBytes: 8_000 },
  high: { maxResults: 8, maxResultBytes: 16_000 },
} as const satisfies Record<'low' | 'medium' | 'high', { maxResults: number; maxResultBytes: number }>;

/** Searches one response may run; after the last one the model must answer with what it has. */
export const maxSearchesPerResponse = 2;

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

/** The query from the model's call arguments (`{"query": "…"}`), or undefined when they hold none. */
export function readSearchQuery(argumentsJson: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(argumentsJson);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || !('query' in value)) return undefined;
  const query = typeof value.query === 'string' ? value.query.replace(/\s+/g, ' ').trim() : '';
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
