import type { SearchEngineId, SearchResult } from './search-engine.ts';

/** One fully built engine call; `shared/send-search-request.ts` sends it. */
export type SearchHttpRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
};

/**
 * Why an engine refused a call, when its answer says so; each means `rejected`, whatever the status: our key is bad
 * or missing, our plan or credit is used up, or the engine would not take the request as sent.
 */
export type EngineRefusal = 'credential' | 'quota' | 'request';

/** What an engine's error answer says beyond its HTTP status. */
export type EngineErrorReport = {
  /** The engine's machine-readable error code, for logs. */
  engineCode?: string | undefined;
  /** Set when the body says more than the status (Brave's 422 for a bad key, its 429 for a used-up quota). */
  refusal?: EngineRefusal | undefined;
};

/**
 * An engine's wire format and nothing else: HTTP, timeouts, size caps and error classes are shared
 * (`create-search-engine.ts`). Every function is pure.
 */
export type SearchEngineAdapter = {
  readonly id: SearchEngineId;
  readonly defaultBaseUrl: string;
  readonly isKeyRequired: boolean;
  /** The most results the engine returns for one call (its documented maximum). */
  readonly maxResultsLimit: number;
  buildRequest: (input: {
    query: string;
    maxResults: number;
    baseUrl: string;
    apiKey: string | undefined;
  }) => SearchHttpRequest;
  /** A 200 body → cleaned results; throws an `unavailable` SearchEngineError when the body breaks the schema. */
  parseResponse: (input: { body: unknown; maxResults: number }) => SearchResult[];
  /** A non-200 answer's body (JSON, or the raw text) → the engine's code and, when it says more, the error kind. */
  readError: (input: { status: number; body: unknown }) => EngineErrorReport;
};
