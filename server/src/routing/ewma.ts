/**
 * One step of an exponentially weighted moving average: the new sample counts for `smoothing` (0 < smoothing ≤ 1),
 * the history for the rest. The first sample is taken as is.
 */
export function nextEwma(previous: number | undefined, sample: number, smoothing: number): number {
  return previous === undefined ? sample : previous + smoothing * (sample - previous);
}
