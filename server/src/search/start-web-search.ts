import type { Dispatcher } from 'undici';
import { createSearchEngine } from './create-search-engine.ts';
import type { SearchEngine, SearchEngineId } from './search-engine.ts';

/** The search-engine simulator (top-level `simulators/search/`), serving each engine under `${url}/<engine id>`. */
export type RunningSearchSimulator = { url: string; close: () => Promise<void> };

export type WebSearch = {
  engine: SearchEngine;
  /** Running when sandbox mode searches its simulator. */
  simulator: RunningSearchSimulator | undefined;
  close: () => Promise<void>;
};

/**
 * The search engine the Responses API uses, as configured. With no engine configured, sandbox mode starts the search
 * simulator (SearXNG dialect) and searches it, so a fresh install answers `web_search` with realistic results; outside
 * sandbox mode the default is SearXNG at its default address. The composition root passes `startSimulator` as a
 * dynamic import, so the simulator's code is loaded only when sandbox mode uses it.
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
  const simulator = input.engine === undefined && input.isSandbox ? await input.startSimulator() : undefined;
  const id = input.engine ?? 'searxng';
  const engine = createSearchEngine({
    id,
    baseUrl: simulator ? `${simulator.url}/${id}` : input.baseUrl,
    apiKey: input.apiKey,
    timeoutMs: input.timeoutMs,
    dispatcher: input.dispatcher,
  });
  return { engine, simulator, close: async () => simulator?.close() };
}
