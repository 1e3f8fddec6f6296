import type { RetryBudgetSettings } from '../config/routing-settings.ts';

// The settings are part of the configuration, which routing reads and never the other way round.
export type { RetryBudgetSettings } from '../config/routing-settings.ts';

export type RetryBudget = {
  /** Counts a request (its first attempt). */
  recordRequest: (nowMs: number) => void;
  /** Takes one retry when the budget allows it. */
  tryRetry: (nowMs: number) => boolean;
};

const bucketCount = 10;

/**
 * A node-wide cap on failover attempts: retries ≤ floor + ratio × requests over a sliding window (ten buckets). When
 * every route is sick, requests then fail fast instead of multiplying the load on the upstreams (a retry storm).
 */
export function createRetryBudget(settings: RetryBudgetSettings): RetryBudget {
  const bucketMs = Math.max(1, Math.ceil(settings.windowMs / bucketCount));
  const buckets = Array.from({ length: bucketCount }, () => ({ index: -1, requests: 0, retries: 0 }));
  const currentBucket = (nowMs: number) => {
    const index = Math.floor(nowMs / bucketMs);
    const bucket = buckets[index % bucketCount] ?? { index, requests: 0, retries: 0 };
    if (bucket.index !== index) Object.assign(bucket, { index, requests: 0, retries: 0 });
    return bucket;
  };
  const totals = (nowMs: number) => {
    const oldest = Math.floor(nowMs / bucketMs) - bucketCount + 1;
    let requests = 0;
    let retries = 0;
    for (const bucket of buckets) {
      if (bucket.index < oldest) continue;
      requests += bucket.requests;
      retries += bucket.retries;
    }
    return { requests, retries };
  };
  return {
    recordRequest: (nowMs) => {
      currentBucket(nowMs).requests += 1;
    },
    tryRetry: (nowMs) => {
      const bucket = currentBucket(nowMs);
      const { requests, retries } = totals(nowMs);
      if (retries >= settings.floorPerWindow + settings.ratio * requests) return false;
      bucket.retries += 1;
      return true;
    },
  };
}
