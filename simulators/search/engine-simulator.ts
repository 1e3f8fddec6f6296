import type { IncomingHttpHeaders } from 'node:http';
import type { SearchEngineId } from '../../server/src/search/search-engine.ts';
import type { SimulatedPage } from './plan-search-pages.ts';

/** One answer of a simulated engine: a JSON body (or text, for SearXNG's HTML errors) with its status. */
export type SimulatedAnswer = {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
  /** Sent as `text/html` instead of JSON. */
  isHtml?: boolean;
};

/** What the simulator understood from a valid request. */
export type SimulatedSearchRequest = {
  query: string;
  /** The number of results asked for, when the engine has such a parameter. */
  count: number | undefined;
  /** Engine-specific switches the answer honours (Brave `text_decorations`, Exa `contents`, Tavily raw content). */
  options: Readonly<Record<string, unknown>>;
};

export type ReadRequestOutcome =
  { isValid: true; request: SimulatedSearchRequest } | { isValid: false; answer: SimulatedAnswer };

/** One engine's wire format as the simulator speaks it. */
export type EngineSimulator = {
  id: SearchEngineId;
  method: 'GET' | 'POST';
  /** The engine's path under its prefix, e.g. `/res/v1/web/search` under `/brave`. */
  path: string;
  /** Checks the credential and the parameters the way the engine does, in the engine's error shapes. */
  readRequest: (input: { query: URLSearchParams; body: unknown; headers: IncomingHttpHeaders }) => ReadRequestOutcome;
  renderResults: (input: { pages: readonly SimulatedPage[]; request: SimulatedSearchRequest }) => SimulatedAnswer;
  /** The engine's error shape for a status (fault directives, invalid JSON). */
  renderError: (status: number) => SimulatedAnswer;
};
