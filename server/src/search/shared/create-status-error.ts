import { parseRetryAfterMs } from '../../providers/shared/parse-retry-after.ts';
import type { EngineErrorReport, EngineRefusal } from '../search-engine-adapter.ts';
import { SearchEngineError, type SearchEngineErrorKind } from '../search-engine-error.ts';
import { searchEngineNames, type SearchEngineId } from '../search-engine.ts';

/**
 * The status → kind rule, written once for every engine: 408, 429 and 5xx are passing trouble (`unavailable`); any
 * other status is the engine refusing the gateway's call (`rejected`): 401/403 a bad key, 402/432/433 a used-up plan,
 * 404 a wrong base URL, 400/422 a request it would not take. An engine's `readError` can say more (EngineRefusal).
 */
export function classifySearchStatus(status: number): SearchEngineErrorKind {
  if (status === 408 || status === 429 || status >= 500) return 'unavailable';
  if (status >= 400) return 'rejected';
  return 'unavailable';
}

/** A non-200 answer → a SearchEngineError whose message names the engine and the status, never the engine's text. */
export function createStatusError(input: {
  engine: SearchEngineId;
  status: number;
  headers: Readonly<Record<string, string>>;
  report: EngineErrorReport;
}): SearchEngineError {
  const refusal = input.report.refusal ?? refusalByStatus(input.status);
  const kind = refusal === undefined ? classifySearchStatus(input.status) : 'rejected';
  const code = input.report.engineCode;
  const name = searchEngineNames[input.engine];
  const detail = code === undefined ? `HTTP ${input.status}` : `HTTP ${input.status} ${code}`;
  return new SearchEngineError({
    kind,
    engine: input.engine,
    status: input.status,
    engineCode: code,
    retryAfterMs: kind === 'unavailable' ? parseRetryAfterMs(input.headers) : undefined,
    message: `${describeStatus({ name, status: input.status, kind, refusal })} (${detail}).`,
  });
}

function refusalByStatus(status: number): EngineRefusal | undefined {
  if (status === 401 || status === 403) return 'credential';
  if (status === 402 || status === 432 || status === 433) return 'quota';
  return undefined;
}

function describeStatus(input: {
  name: string;
  status: number;
  kind: SearchEngineErrorKind;
  refusal: EngineRefusal | undefined;
}): string {
  if (input.refusal === 'credential') return `${input.name} refused the gateway's credential`;
  if (input.refusal === 'quota') return `${input.name} refused the search: the plan's quota or credit is used up`;
  if (input.refusal === 'request' || input.kind === 'rejected') return `${input.name} refused the search request`;
  if (input.status === 429) return `${input.name} is rate limiting searches`;
  if (input.status >= 500) return `${input.name} is unavailable`;
  return `${input.name} sent an unexpected answer`;
}
