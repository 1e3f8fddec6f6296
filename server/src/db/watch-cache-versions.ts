import type { Database } from './database.ts';
import { listCacheVersions, type CacheName } from './cache-versions.ts';

export type CacheWatcher = { stop: () => void; checkNow: () => Promise<void> };

/**
 * Polls the cache-version counters and calls `onChange` for each one that moved, so that a change made by the CLI,
 * the operator API or another node reaches this node's memory within `intervalMs`.
 */
export function watchCacheVersions(input: {
  db: Database;
  intervalMs: number;
  onChange: (name: CacheName) => Promise<void>;
  onError: (error: unknown) => void;
}): CacheWatcher {
  let known: Record<CacheName, number> | undefined;
  let running: Promise<void> | undefined;
  const check = async () => {
    const current = await listCacheVersions(input.db);
    const previous = known;
    known = current;
    if (!previous) return;
    for (const name of Object.keys(current) as CacheName[]) {
      if (current[name] !== previous[name]) await input.onChange(name);
    }
  };
  const checkNow = () => {
    running ??= check()
      .catch(input.onError)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  void checkNow();
  const timer = setInterval(() => void checkNow(), input.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), checkNow };
}
