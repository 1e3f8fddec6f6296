/** How often each node looks for subscriptions to renew. */
export const renewalIntervalMs = 60_000;

/**
 * Runs the renewal pass every `intervalMs` (and once at start), never two at a time on this node. Several nodes may
 * run it together: each period is paid once whichever node gets there first. `stop` waits for a pass under way.
 */
export function scheduleRenewals(input: {
  intervalMs: number;
  renew: () => Promise<unknown>;
  onError: (error: unknown) => void;
}): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= input
      .renew()
      .then(() => undefined, input.onError)
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, input.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
