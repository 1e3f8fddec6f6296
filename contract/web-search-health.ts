import { z } from 'zod';

/** Why a search failed: the engine took too long, could not be reached or answered 5xx, or refused the call. */
export const webSearchFailureKindSchema = z.enum(['timeout', 'unavailable', 'rejected']);

/**
 * `GET /api/operator/web-search`: the web search engine of the process that answered, its state and its recent
 * failures (docs/web-search-engines.md, "Knowing when search is off or broken"). Never a query text.
 */
export const webSearchHealthSchema = z.object({
  /** `none`: web search is not configured (SEARCH_ENGINE is not set outside sandbox mode). */
  engine: z.enum(['searxng', 'brave', 'tavily', 'exa', 'none']),
  /** The engine's name as the docs give it; null when none is configured. */
  engine_name: z.string().nullable(),
  /** The engine's origin (no path, user or password); null for the sandbox simulator or no engine. */
  address: z.string().nullable(),
  /** Sandbox mode searches the built-in search simulator (no SEARCH_ENGINE set). */
  is_simulator: z.boolean(),
  /** `failing` after `failures_before_failing` failed searches in a row, until one succeeds; as `/readyz` reports. */
  status: z.enum(['ok', 'failing', 'not_configured']),
  /** When the search that made the status `failing` failed (ISO 8601); null while not failing. */
  failing_since: z.string().nullable(),
  failures_in_a_row: z.number().int().min(0),
  failures_before_failing: z.number().int().min(1),
  /** Failed searches since this process started (searches a leaving client cut short are not counted). */
  failure_count: z.number().int().min(0),
  last_failure: z
    .object({
      at: z.string(),
      kind: webSearchFailureKindSchema,
      /** The engine's HTTP status, when it answered one. */
      http_status: z.number().int().nullable(),
    })
    .nullable(),
  last_success_at: z.string().nullable(),
  /** Where the setup is described in the gateway's documentation. */
  setup_doc: z.string(),
});
export type WebSearchHealthView = z.infer<typeof webSearchHealthSchema>;
