import { UpstreamFailureError } from '../providers/provider-adapter.ts';
import type { AttemptOutcome } from './route-health.ts';

/** What a failed attempt says about its route: a request fault or a client who left says nothing bad about it. */
export function describeAttemptOutcome(error: unknown, signal: AbortSignal): AttemptOutcome {
  if (signal.aborted) return { kind: 'abandoned' };
  if (!(error instanceof UpstreamFailureError)) return { kind: 'request_error' };
  const failure = error.failure;
  if (failure.kind === 'request') return { kind: 'request_error' };
  const reason = failure.kind === 'credential' ? 'credential' : failure.status === 504 ? 'timeout' : 'retryable';
  return {
    kind: 'failure',
    reason,
    ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
  };
}
