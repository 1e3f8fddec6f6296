import type { UpstreamFailure } from '../provider-adapter.ts';
import { assertNever } from './assert-never.ts';
import { cleanVendorMessage } from './clean-vendor-message.ts';
import { parseRetryAfterMs } from './parse-retry-after.ts';

type FailureKind = UpstreamFailure['kind'];

/** What a vendor's `errors.ts` read from a failed response. */
export type VendorErrorReport = {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The vendor's own message; shown to the client (cleaned) only for `request` failures. */
  vendorMessage: string | undefined;
  /** The client parameter at fault, in OpenAI's naming. */
  param?: string | undefined;
  vendorCode?: string | undefined;
  /** Set when the vendor's error type says more than the status (overload on a 400, billing on a 402, …). */
  kind?: FailureKind | undefined;
  /** A delay the vendor put in the body (Gemini RetryInfo); headers are read otherwise. */
  retryAfterMs?: number | undefined;
};

/**
 * The status → handling rule of docs/STYLE.md §8, written once for every vendor:
 * - 401, 402, 403: our credential or vendor account is at fault; fail over.
 * - 404: the route's upstream model or address does not exist for our account; a route problem, not the client's.
 * - 408, 409, 429, 5xx (incl. Anthropic's 529): transient; fail over, honouring Retry-After.
 * - any other 4xx: the client's request is at fault.
 */
export function classifyStatus(status: number): FailureKind {
  if (status === 401 || status === 402 || status === 403 || status === 404) return 'credential';
  if (status === 408 || status === 409 || status === 429 || status >= 500) return 'retryable';
  if (status >= 400) return 'request';
  return 'retryable';
}

export function createUpstreamFailure(report: VendorErrorReport): UpstreamFailure {
  const kind = report.kind ?? classifyStatus(report.status);
  const failure: UpstreamFailure = { kind, status: report.status, message: describeFailure(kind, report) };
  if (kind === 'request' && report.param !== undefined) failure.param = report.param;
  if (report.vendorCode !== undefined) failure.vendorCode = report.vendorCode;
  if (kind === 'retryable') {
    const retryAfterMs = report.retryAfterMs ?? parseRetryAfterMs(report.headers);
    if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  }
  return failure;
}

/** Only a `request` failure shows the vendor's words: other messages can carry account ids and quota details. */
function describeFailure(kind: FailureKind, report: VendorErrorReport): string {
  switch (kind) {
    case 'request': {
      const cleaned = cleanVendorMessage(report.vendorMessage ?? '');
      return cleaned === '' ? `The upstream provider rejected the request (HTTP ${report.status}).` : cleaned;
    }
    case 'credential':
      return `The upstream provider refused the gateway's route (HTTP ${report.status}).`;
    case 'retryable':
      if (report.status === 429) return 'The upstream provider is rate limiting requests.';
      if (report.status === 408 || report.status === 504) return 'The upstream provider timed out.';
      return `The upstream provider is unavailable (HTTP ${report.status}).`;
    default:
      return assertNever(kind);
  }
}
