/** Time comes through deps so tests can control it. */
export type Clock = { nowMs: () => number };

export const systemClock: Clock = { nowMs: () => Date.now() };

export function toUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
