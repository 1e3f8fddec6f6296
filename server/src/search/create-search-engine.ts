import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../lib/clock.ts';
import { braveAdapter } from './brave/brave-adapter.ts';
import { exaAdapter } from './exa/exa-adapter.ts';
import type { SearchEngineAdapter } from './search-engine-adapter.ts';
import { SearchEngineError } from './search-engine-error.ts';
import {
  searchEngineNames,
  type SearchEngine,
  type SearchEngineId,
  type SearchInput,
  type SearchOutcome,
} from './search-engine.ts';
import { searxngAdapter } from './searxng/searxng-adapter.ts';
import { createStatusError } from './shared/create-status-error.ts';
import { sendSearchRequest } from './shared/send-search-request.ts';
import { tavilyAdapter } from './tavily/tavily-adapter.ts';

const adapters = {
  searxng: searxngAdapter,
  brave: braveAdapter,
  tavily: tavilyAdapter,
  exa: exaAdapter,
} as const satisfies Record<SearchEngineId, SearchEngineAdapter>;

/** Where each engine is reached when no base URL is configured: SearXNG on this machine, the others' public APIs. */
export const defaultSearchBaseUrls = {
  searxng: searxngAdapter.defaultBaseUrl,
  brave: braveAdapter.defaultBaseUrl,
  tavily: tavilyAdapter.defaultBaseUrl,
  exa: exaAdapter.defaultBaseUrl,
} as const satisfies Record<SearchEngineId, string>;

/** The whole call, from connecting to the last body byte. */
export const defaultSearchTimeoutMs = 10_000;
/** Search answers are a few hundred KB at most; a larger body is a misconfigured proxy or an attack. */
export const defaultSearchMaxResponseBytes = 4 * 1024 * 1024;

/** How the operator configured web search (config/ reads it from the environment and passes it in). */
export type SearchEngineConfig = {
  id: SearchEngineId;
  /** The engine's API root, e.g. `https://api.search.brave.com`; the engine's public address when not set. */
  baseUrl?: string | undefined;
  /** Required for Brave, Tavily and Exa; for SearXNG only when a proxy in front wants a Bearer token. */
  apiKey?: string | undefined;
  timeoutMs?: number | undefined;
  maxResponseBytes?: number | undefined;
  /** A keep-alive pool (`undici` Agent); tests pass one too, so calls go over real HTTP. */
  dispatcher: Dispatcher;
  clock?: Clock | undefined;
};

/**
 * The SearchEngine for the configured engine. Throws at once (at startup) when an engine that needs a key has none.
 */
export function createSearchEngine(config: SearchEngineConfig): SearchEngine {
  const adapter: SearchEngineAdapter = adapters[config.id];
  const apiKey = config.apiKey?.trim() || undefined;
  if (adapter.isKeyRequired && apiKey === undefined) {
    throw new Error(`Web search with ${searchEngineNames[config.id]} needs an API key.`);
  }
  const settings = {
    adapter,
    apiKey,
    baseUrl: config.baseUrl?.trim() || adapter.defaultBaseUrl,
    timeoutMs: config.timeoutMs ?? defaultSearchTimeoutMs,
    maxResponseBytes: config.maxResponseBytes ?? defaultSearchMaxResponseBytes,
    dispatcher: config.dispatcher,
    clock: config.clock ?? systemClock,
  };
  return { id: config.id, search: (input) => runSearch(settings, input) };
}

type EngineSettings = {
  adapter: SearchEngineAdapter;
  apiKey: string | undefined;
  baseUrl: string;
  timeoutMs: number;
  maxResponseBytes: number;
  dispatcher: Dispatcher;
  clock: Clock;
};

async function runSearch(settings: EngineSettings, input: SearchInput): Promise<SearchOutcome> {
  const { adapter } = settings;
  const startedMs = settings.clock.nowMs();
  const query = input.query.trim();
  if (query === '') {
    throw new SearchEngineError({
      kind: 'rejected',
      engine: adapter.id,
      message: 'The search query is empty.',
      engineCode: 'empty_query',
    });
  }
  const requested = Number.isFinite(input.maxResults) ? Math.floor(input.maxResults) : 1;
  const maxResults = Math.min(Math.max(1, requested), adapter.maxResultsLimit);
  const response = await sendSearchRequest({
    engine: adapter.id,
    request: adapter.buildRequest({ query, maxResults, baseUrl: settings.baseUrl, apiKey: settings.apiKey }),
    dispatcher: settings.dispatcher,
    signal: input.signal,
    timeoutMs: settings.timeoutMs,
    maxBodyBytes: settings.maxResponseBytes,
  });
  if (response.status !== 200) {
    const report = adapter.readError({ status: response.status, body: response.body });
    throw createStatusError({ engine: adapter.id, status: response.status, headers: response.headers, report });
  }
  const results = adapter.parseResponse({ body: response.body, maxResults });
  return { results, engine: adapter.id, tookMs: Math.max(0, settings.clock.nowMs() - startedMs) };
}
