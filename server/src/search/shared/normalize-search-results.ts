import type { SearchResult } from '../search-engine.ts';
import { cleanSearchText } from './clean-search-text.ts';
import { readIsoDate } from './read-iso-date.ts';

/** A result as an engine converter read it, before cleaning. */
export type RawSearchResult = {
  url: string;
  title: string | null | undefined;
  snippet: string | null | undefined;
  content?: string | null | undefined;
  publishedAt?: string | null | undefined;
};

/** Bounds on what one result may carry into the model's input (characters, after cleaning). */
export const searchResultLimits = { titleChars: 200, snippetChars: 500, contentChars: 3000, urlChars: 2048 } as const;

/**
 * The rules every engine's results pass, in the engine's order: only absolute http(s) URLs without credentials (only
 * such URLs may become citations), one result per page (the URL without its fragment), plain-text title, snippet and
 * content of bounded length, ISO dates only, and at most `maxResults`.
 */
export function normalizeSearchResults(raw: readonly RawSearchResult[], input: { maxResults: number }): SearchResult[] {
  const results: SearchResult[] = [];
  const seenPages = new Set<string>();
  for (const candidate of raw) {
    if (results.length >= input.maxResults) break;
    const url = parseWebUrl(candidate.url);
    if (url === undefined) continue;
    const pageKey = url.href.replace(/#.*$/, '');
    if (seenPages.has(pageKey)) continue;
    seenPages.add(pageKey);
    results.push(cleanResult(candidate, url));
  }
  return results;
}

function cleanResult(candidate: RawSearchResult, url: URL): SearchResult {
  const content = cleanSearchText(candidate.content ?? '', searchResultLimits.contentChars);
  const snippet =
    cleanSearchText(candidate.snippet ?? '', searchResultLimits.snippetChars) ||
    cleanSearchText(content, searchResultLimits.snippetChars);
  const result: SearchResult = {
    url: url.href,
    title: cleanSearchText(candidate.title ?? '', searchResultLimits.titleChars) || url.hostname,
    snippet,
  };
  if (content !== '' && content !== snippet) result.content = content;
  const publishedAt = readIsoDate(candidate.publishedAt);
  if (publishedAt !== undefined) result.publishedAt = publishedAt;
  return result;
}

function parseWebUrl(text: string): URL | undefined {
  const trimmed = text.trim();
  if (trimmed.length > searchResultLimits.urlChars || !URL.canParse(trimmed)) return undefined;
  const url = new URL(trimmed);
  const isWeb = url.protocol === 'https:' || url.protocol === 'http:';
  return isWeb && url.hostname !== '' && url.username === '' && url.password === '' ? url : undefined;
}
