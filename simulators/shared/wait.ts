import { setTimeout as sleep } from 'node:timers/promises';

/** Waits `delayMs`, or less if the signal aborts first (the client left or the simulator closes). Never throws. */
export async function wait(delayMs: number, signal: AbortSignal): Promise<void> {
  if (delayMs <= 0 || signal.aborted) return;
  await sleep(delayMs, undefined, { signal }).catch(() => undefined);
}

export async function waitUntilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
