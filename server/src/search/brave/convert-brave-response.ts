import type { SearchResult } from '../search-engine.ts';
import { normalizeSearchResults } from '../shared/normalize-search-results.ts';
import { readIsoDate } from '../shared/read-iso-date.ts';
import type { BraveWebSearchResponse } from './brave-api.ts';

/**
 * Brave's web results → SearchResults: `description` is the snippet, the extra snippets (when the plan has them) the
 * content, and `page_age` the date (`age` only when it happens to be an ISO date).
 * @see https://api-dashboard.search.brave.com/app/documentation/web-search/responses
 */
export function convertBraveResponse(body: BraveWebSearchResponse, input: { maxResults: number }): SearchResult[] {
  const raw = (body.web?.results ?? []).flatMap((result) =>
    result === null
      ? []
      : [
          {
            url: result.url,
            title: result.title,
            snippet: result.description,
            content: result.extra_snippets?.join(' … '),
            publishedAt: readIsoDate(result.page_age) ?? readIsoDate(result.age),
          },
        ],
  );
  return normalizeSearchResults(raw, input);
}
