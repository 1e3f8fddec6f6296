import type { Logger } from 'pino';
import type { RedisCreditHolds } from './redis-credit-holds.ts';

/** A lease renewal every second: a third of the shortest recovery window, a tenth of the lease. */
export const heartbeatIntervalMs = 1_000;

/**
 * Renews this node's lease on its credit holds once a second (re-posting them when Redis lost them) and, in a loop of
 * its own, checks that Redis has every hold and reaps the nodes whose lease ran out: a reap that waits behind a busy
 * connection never delays the next renewal (decision 1902). Each loop's beat waits for its previous one, so a slow
 * Redis never stacks them up.
 */
export function startCreditLease(
  holds: Pick<RedisCreditHolds, 'renewLease' | 'tend'>,
  logger: Pick<Logger, 'warn' | 'error'>,
  intervalMs = heartbeatIntervalMs,
): { stop: () => Promise<void> } {
  const renewals = repeat(intervalMs, () =>
    holds.renewLease().catch((error: unknown) => logger.error({ err: error }, 'renewing the credit lease failed')),
  );
  const tending = repeat(intervalMs, () =>
    holds.tend().then(
      (reaped) => {
        if (reaped.length > 0) logger.warn({ nodes: reaped }, 'released the credit holds of nodes whose lease ran out');
      },
      (error: unknown) => logger.error({ err: error }, 'checking the credit holds in Redis failed'),
    ),
  );
  return { stop: async () => void (await Promise.all([renewals.stop(), tending.stop()])) };
}

/** Runs `beat` every `intervalMs` after the previous one settled, until stopped (then waits for the one running). */
function repeat(intervalMs: number, beat: () => Promise<void>): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = beat().finally(() => {
      if (timer) timer = setTimeout(run, intervalMs);
    });
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(run, intervalMs);
  return {
    stop: async () => {
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
