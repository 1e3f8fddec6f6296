import type { SearchEngineId } from './search-engine.ts';

/**
 * - `timeout`: no complete answer within the timeout, or the caller's signal aborted first.
 * - `unavailable`: the engine could not be reached, was rate limiting (429), failed (5xx), or sent an answer the
 *   gateway could not read or that was too large. Trying again later may work.
 * - `rejected`: the engine refused the gateway's call: a bad or missing credential, a used-up plan or quota, or a
 *   request it would not take. Trying again will not help until the operator acts.
 */
export type SearchEngineErrorKind = 'timeout' | 'unavailable' | 'rejected';

export type SearchEngineErrorOptions = {
  kind: SearchEngineErrorKind;
  /** `none`: no engine is configured. */
  engine: SearchEngineId | 'none';
  /** Clean and safe to log or show: never a key, an internal host or the engine's own free text. */
  message: string;
  /** The engine's HTTP status, when it answered. */
  status?: number | undefined;
  /** The engine's machine-readable error code (`SUBSCRIPTION_TOKEN_INVALID`, `INVALID_API_KEY`), for logs. */
  engineCode?: string | undefined;
  /** A wait the engine asked for (`Retry-After`). */
  retryAfterMs?: number | undefined;
  cause?: unknown;
};

/**
 * The only error a SearchEngine's `search` rejects with. It never reaches a client as an error response: the
 * Responses pipeline answers without search results and reports the failure in the `web_search_call` item.
 */
export class SearchEngineError extends Error {
  readonly kind: SearchEngineErrorKind;
  readonly engine: SearchEngineId | 'none';
  readonly status: number | undefined;
  readonly engineCode: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(options: SearchEngineErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SearchEngineError';
    this.kind = options.kind;
    this.engine = options.engine;
    this.status = options.status;
    this.engineCode = options.engineCode;
    this.retryAfterMs = options.retryAfterMs;
  }
}
