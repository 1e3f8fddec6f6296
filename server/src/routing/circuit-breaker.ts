import type { BreakerSettings } from '../config/routing-settings.ts';

/** `closed`: traffic flows; `open`: no traffic until the cool-down ends; `half_open`: one probe is in flight. */
export type BreakerState = 'closed' | 'open' | 'half_open';

// The settings are part of the configuration, which routing reads and never the other way round.
export type { BreakerSettings } from '../config/routing-settings.ts';

export type CircuitBreaker = {
  /** The state at `nowMs`; an open breaker whose cool-down has ended still reads `open` until a probe takes it. */
  state: () => BreakerState;
  /** Whether a call may go now, without taking anything (for ordering). */
  canPass: (nowMs: number) => boolean;
  /** Takes the right to call: always when closed; the single probe when open and cooled down. */
  tryPass: (nowMs: number) => boolean;
  recordSuccess: () => void;
  recordFailure: (nowMs: number) => void;
  /** A call ended without a verdict on the route (the client left): a probe may go again. */
  releaseProbe: () => void;
  /** When an open breaker lets its next probe through. */
  reopensAtMs: () => number | undefined;
};

/**
 * The classic three-state breaker: closed → open after `failureThreshold` consecutive failures → after `coolDownMs`
 * one probe (half-open) → closed on its success, open again (a new cool-down) on its failure.
 */
export function createCircuitBreaker(settings: BreakerSettings): CircuitBreaker {
  let state: BreakerState = 'closed';
  let consecutiveFailures = 0;
  let openedAtMs = 0;
  const isCooledDown = (nowMs: number) => nowMs >= openedAtMs + settings.coolDownMs;
  const open = (nowMs: number) => {
    state = 'open';
    openedAtMs = nowMs;
  };
  return {
    state: () => state,
    canPass: (nowMs) => state === 'closed' || (state === 'open' && isCooledDown(nowMs)),
    tryPass: (nowMs) => {
      if (state === 'closed') return true;
      if (state === 'open' && isCooledDown(nowMs)) {
        state = 'half_open';
        return true;
      }
      return false;
    },
    recordSuccess: () => {
      state = 'closed';
      consecutiveFailures = 0;
    },
    recordFailure: (nowMs) => {
      consecutiveFailures += 1;
      if (state === 'half_open' || (state === 'closed' && consecutiveFailures >= settings.failureThreshold)) {
        open(nowMs);
      }
    },
    releaseProbe: () => {
      if (state === 'half_open') state = 'open';
    },
    reopensAtMs: () => (state === 'closed' ? undefined : openedAtMs + settings.coolDownMs),
  };
}
