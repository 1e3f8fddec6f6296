/**
 * Runs `run` now and then every `intervalMs`; after a failure the next run waits twice as long as the last wait, up
 * to `maxDelayMs`, and the first success returns to `intervalMs` (TronGrid down or answering 429 is not hammered).
 * Never two runs at a time on this node; `stop` waits for a run under way.
 */
export function scheduleWithBackoff(input: {
  intervalMs: number;
  maxDelayMs: number;
  run: () => Promise<unknown>;
  onError: (error: unknown, nextDelayMs: number) => void;
}): { stop: () => Promise<void> } {
  let isStopped = false;
  let delayMs = input.intervalMs;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    running = input
      .run()
      .then(
        () => {
          delayMs = input.intervalMs;
        },
        (error: unknown) => {
          delayMs = Math.min(input.maxDelayMs, delayMs * 2);
          input.onError(error, delayMs);
        },
      )
      .finally(() => {
        running = undefined;
        if (isStopped) return;
        timer = setTimeout(tick, delayMs);
        timer.unref();
      });
  };
  tick();
  return {
    stop: async () => {
      isStopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
