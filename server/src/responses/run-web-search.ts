import { SearchEngineError } from '../search/search-engine-error.ts';
import type { SearchEngine, SearchResult } from '../search/search-engine.ts';
import { convertSearchResultsToInput, type SearchInputSource } from '../search/search-results-to-input.ts';
import { describeSearchOutcome, type WebSearchSettings } from './web-search-tool.ts';

export type WebSearchRun = {
  /** What the model reads: numbered results with the citation rule, or why there are none. */
  modelText: string;
  /** The numbered sources the model saw; only these can become citations. */
  sources: SearchInputSource[];
  /** False when the engine failed (timeout, unavailable, rejected): the answer goes on without results. */
  isCompleted: boolean;
  failure: SearchEngineError | undefined;
};

/**
 * Runs one search and turns its outcome into model input. An engine failure is not an error of the response
 * (docs/web-search-engines.md): the model is told the search failed and answers without sources.
 */
export async function runWebSearch(
  deps: { searchEngine: SearchEngine },
  input: { query: string; settings: WebSearchSettings; firstNumber: number; signal: AbortSignal },
): Promise<WebSearchRun> {
  const { settings } = input;
  const described = { query: input.query };
  let results: SearchResult[];
  try {
    const outcome = await deps.searchEngine.search({
      query: input.query,
      maxResults: settings.allowedDomains || settings.blockedDomains ? settings.maxResults * 4 : settings.maxResults,
      signal: input.signal,
    });
    results = outcome.results;
  } catch (error) {
    if (!(error instanceof SearchEngineError)) throw error;
    return {
      modelText: describeSearchOutcome({ kind: 'failed' }, described),
      sources: [],
      isCompleted: false,
      failure: error,
    };
  }
  const kept = results
    .filter(
      (result) => isAllowed(result.url, settings.allowedDomains) && !isBlocked(result.url, settings.blockedDomains),
    )
    .slice(0, settings.maxResults);
  if (kept.length === 0) {
    return {
      modelText: describeSearchOutcome({ kind: 'empty' }, described),
      sources: [],
      isCompleted: true,
      failure: undefined,
    };
  }
  const resultsInput = convertSearchResultsToInput({
    results: kept,
    maxBytes: settings.maxResultBytes,
    firstNumber: input.firstNumber,
  });
  return {
    modelText: describeSearchOutcome({ kind: 'results', input: resultsInput }, described),
    sources: resultsInput.sources,
    isCompleted: true,
    failure: undefined,
  };
}

function isAllowed(url: string, allowedDomains: readonly string[] | undefined): boolean {
  return !allowedDomains || isOnDomain(url, allowedDomains);
}

function isBlocked(url: string, blockedDomains: readonly string[] | undefined): boolean {
  return blockedDomains !== undefined && isOnDomain(url, blockedDomains);
}

function isOnDomain(url: string, domains: readonly string[]): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
