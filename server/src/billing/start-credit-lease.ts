import type { Logger } from 'pino';
import type { RedisCreditHolds } from './redis-credit-holds.ts';

/** A lease renewal every second: a third of the shortest recovery window, a tenth of the lease. */
export const heartbeatIntervalMs = 1_000;

/**
 * Renews this node's lease on its credit holds once a second (re-posting them when Redis lost them) and reaps the
 * nodes whose lease ran out. A beat waits for the previous one, so a slow Redis never stacks them up.
 */
export function startCreditLease(
  holds: Pick<RedisCreditHolds, 'heartbeat'>,
  logger: Pick<Logger, 'warn' | 'error'>,
  intervalMs = heartbeatIntervalMs,
): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const beat = () => {
    running = holds
      .heartbeat()
      .then((reaped) => {
        if (reaped.length > 0) logger.warn({ nodes: reaped }, 'released the credit holds of nodes whose lease ran out');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'renewing the credit lease failed'))
      .finally(() => {
        if (timer) timer = setTimeout(beat, intervalMs);
      });
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(beat, intervalMs);
  return {
    stop: async () => {
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
