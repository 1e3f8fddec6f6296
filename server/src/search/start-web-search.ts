import type { Dispatcher } from 'undici';
import { createSearchEngine, defaultSearchBaseUrls } from './create-search-engine.ts';
import { SearchEngineError } from './search-engine-error.ts';
import { searchEngineNames, type SearchEngine, type SearchEngineId } from './search-engine.ts';

/** The search-engine simulator (top-level `simulators/search/`), serving each engine under `${url}/<engine id>`. */
export type RunningSearchSimulator = { url: string; close: () => Promise<void> };

export type WebSearch = {
  engine: SearchEngine;
  /** Running when sandbox mode searches its simulator. */
  simulator: RunningSearchSimulator | undefined;
  /** The configured engine's origin (no path, user or password); undefined for the simulator or no engine. */
  address: string | undefined;
  close: () => Promise<void>;
};

/**
 * The search engine the Responses API uses, as configured. With no engine configured, sandbox mode starts the search
 * simulator (SearXNG dialect) and searches it, so a fresh install answers `web_search` with realistic results; outside
 * sandbox mode web search is off: every search fails at once as `rejected` (no engine is assumed on any address), and
 * start-up says so. The composition root passes `startSimulator` as a dynamic import, so the simulator's code is
 * loaded only when sandbox mode uses it.
 */
export async function startWebSearch(input: {
  engine: SearchEngineId | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  isSandbox: boolean;
  dispatcher: Dispatcher;
  startSimulator: () => Promise<RunningSearchSimulator>;
}): Promise<WebSearch> {
  if (input.engine === undefined && !input.isSandbox) {
    return { engine: unconfiguredSearchEngine, simulator: undefined, address: undefined, close: async () => undefined };
  }
  const simulator = input.engine === undefined ? await input.startSimulator() : undefined;
  const id = input.engine ?? 'searxng';
  const engine = createSearchEngine({
    id,
    baseUrl: simulator ? `${simulator.url}/${id}` : input.baseUrl,
    apiKey: input.apiKey,
    timeoutMs: input.timeoutMs,
    dispatcher: input.dispatcher,
  });
  const address = input.engine === undefined ? undefined : findEngineOrigin(input.engine, input.baseUrl);
  return { engine, simulator, address, close: async () => simulator?.close() };
}

/** Web search when SEARCH_ENGINE is not set outside sandbox mode: off, and every search says so. */
const unconfiguredSearchEngine: SearchEngine = {
  id: 'none',
  search: async () => {
    throw new SearchEngineError({
      kind: 'rejected',
      engine: 'none',
      message: 'Web search is not configured on this gateway (SEARCH_ENGINE is not set).',
      engineCode: 'not_configured',
    });
  },
};

/**
 * One phrase for the start-up line: which engine at which address (origin only: no path, user or password), the
 * simulator, or that web search is not configured.
 */
export function describeWebSearch(input: {
  engine: SearchEngineId | undefined;
  baseUrl: string | undefined;
  isSandbox: boolean;
}): string {
  if (input.engine === undefined) {
    return input.isSandbox
      ? 'the search simulator (sandbox mode)'
      : 'not configured (set SEARCH_ENGINE; docs/web-search-engines.md)';
  }
  return `${searchEngineNames[input.engine]} at ${findEngineOrigin(input.engine, input.baseUrl)}`;
}

/** Where an engine is reached, as the origin only, so no path, user or password is shown. */
function findEngineOrigin(engine: SearchEngineId, baseUrl: string | undefined): string {
  return new URL(baseUrl ?? defaultSearchBaseUrls[engine]).origin;
}
