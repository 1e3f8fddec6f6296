import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';

/**
 * How long before its lease could run out a node cut off from Redis ends its open calls: time for their final
 * charges to reach the database (a write group every 10 ms) before any other node may reap it (docs/billing.md).
 */
export const fenceMarginMs = 3_000;
/** How often the fence looks at the lease: the cut comes at most this late, well inside the margin. */
export const fenceCheckIntervalMs = 250;

/**
 * Self-fencing: while the node's lease is renewed nothing happens; once `leaseMs - marginMs` pass after the last
 * renewal Redis confirmed (counted from when it was sent, on a monotonic clock), every call still holding credit is
 * cut and settled for what it delivered, so that when another node reaps this one, nothing it frees is still delivering.
 * The timer runs apart from the heartbeat, which may be stuck waiting on a Redis that does not answer.
 */
export function startCreditFence(deps: {
  leaseRenewedAtMs: () => number;
  monotonicNowMs: () => number;
  leaseMs: number;
  marginMs?: number;
  intervalMs?: number;
  /** Ends the calls that hold credit on this node; returns how many. */
  cutOpenCalls: () => number;
  /** Told how many calls each fence cut (the `/metrics` counter). */
  onFence: (calls: number) => void;
  logger: Pick<Logger, 'error'>;
}): { stop: () => void } {
  const fenceAfterMs = deps.leaseMs - (deps.marginMs ?? fenceMarginMs);
  const silentMs = () => deps.monotonicNowMs() - deps.leaseRenewedAtMs();
  const check = () => {
    if (silentMs() < fenceAfterMs) return;
    // Decided after this turn's I/O: a timer that fired late on a busy event loop may find the renewal's answer
    // already received but not yet read, and it counts before any call is cut (decision 1902).
    setImmediate(cutIfStillSilent);
  };
  const cutIfStillSilent = () => {
    const silentForMs = silentMs();
    if (silentForMs < fenceAfterMs) return;
    const calls = deps.cutOpenCalls();
    if (calls === 0) return;
    deps.onFence(calls);
    deps.logger.error(
      { calls, sinceLeaseRenewalMs: Math.round(silentForMs), leaseMs: deps.leaseMs },
      'credit fence: Redis did not renew this node lease in time; cut its open calls and settled what they delivered',
    );
  };
  const timer = setInterval(check, deps.intervalMs ?? fenceCheckIntervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Starts the fence of a node on Redis credit holds, counting what it cuts in `gateway_credit_fenced_calls_total`. */
export function startNodeCreditFence(input: {
  leaseRenewedAtMs: () => number;
  leaseMs: number;
  cutOpenCalls: () => number;
  registry: Registry;
  logger: Pick<Logger, 'error'>;
}): { stop: () => void } {
  const fenced = new Counter({
    name: 'gateway_credit_fenced_calls_total',
    help: 'Calls this node cut because it could not renew its credit lease in Redis in time (docs/billing.md).',
    registers: [input.registry],
  });
  return startCreditFence({ ...input, monotonicNowMs: () => performance.now(), onFence: (calls) => fenced.inc(calls) });
}
