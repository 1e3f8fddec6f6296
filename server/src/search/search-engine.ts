/** The web search engines the gateway can query for the Responses API's `web_search` tool. */
export const searchEngineIds = ['searxng', 'brave', 'tavily', 'exa'] as const;
export type SearchEngineId = (typeof searchEngineIds)[number];

/** One page found by a search engine, cleaned: http(s) URL, plain-text title and snippet of bounded length. */
export type SearchResult = {
  url: string;
  title: string;
  /** A short plain-text excerpt (the engine's description or first highlight). */
  snippet: string;
  /** A longer plain-text excerpt of the page, when the engine sends one (Exa highlights, Brave extra snippets). */
  content?: string;
  /** The publication date as the engine gave it, only when it is an ISO 8601 date (`2025-03-04` or a date-time). */
  publishedAt?: string;
};

/** A finished search. `results` may be empty: the engine answered but found nothing. */
export type SearchOutcome = { results: SearchResult[]; engine: SearchEngineId; tookMs: number };

export type SearchInput = {
  query: string;
  /** At most this many results come back; each engine also caps it at its own documented maximum. */
  maxResults: number;
  /** Aborting it (the client left, the pipeline's budget ran out) ends the call with a `timeout` SearchEngineError. */
  signal: AbortSignal;
};

/**
 * The one interface the Responses pipeline calls. `search` resolves with the results (possibly none) or rejects with a
 * SearchEngineError, never with anything else; the pipeline then answers without search results.
 */
export type SearchEngine = {
  /** `none` when web search is not configured: every search fails at once (`startWebSearch`). */
  readonly id: SearchEngineId | 'none';
  search: (input: SearchInput) => Promise<SearchOutcome>;
};

/** How each engine is named in messages and docs. */
export const searchEngineNames = {
  searxng: 'SearXNG',
  brave: 'Brave Search',
  tavily: 'Tavily',
  exa: 'Exa',
} as const satisfies Record<SearchEngineId, string>;
