/** How far V8 may let the old generation grow past its live size with many connections open (decisions 1760, 1840). */
export const cappedGrowthPercent = 10;

/**
 * Open TCP sockets (clients and upstreams together) from which the cap applies: 1,000 open streams hold about 2,000,
 * the benchmark's c=64 throughput run about 130, where the cap cost a fifth of the requests per second.
 */
export const manySocketsThreshold = 400;

export type OldGenerationGrowthDeps = {
  countOpenSockets: () => number;
  setV8Flags: (flags: string) => void;
  /** A full collection, so that a new growth limit holds at once rather than after V8's next mark-compact. */
  collectGarbage: () => void;
};

/**
 * Caps V8's old-generation growth while many connections are open, and gives V8 its own factor back when they close.
 * With many streams open, V8's factor (up to 4× on a small heap) let the old generation reach twice its live size
 * with promoted garbage before each mark-compact; capped, that garbage stays near a tenth of the live size, at the
 * price of more frequent mark-compacts, which a few busy connections pay for in throughput and many slow streams
 * barely notice. Returns the check, to run on a timer.
 */
export function watchOldGenerationGrowth(deps: OldGenerationGrowthDeps): () => void {
  let isCapped = false;
  return () => {
    const shouldCap = deps.countOpenSockets() >= manySocketsThreshold;
    if (shouldCap === isCapped) return;
    isCapped = shouldCap;
    // 0 is V8's default: its own growing factor.
    deps.setV8Flags(`--heap-growing-percent=${shouldCap ? cappedGrowthPercent : 0}`);
    if (shouldCap) deps.collectGarbage();
  };
}

/** The process's open TCP sockets, from Node's list of what keeps the event loop alive. */
export function countOpenSockets(): number {
  let count = 0;
  for (const resource of process.getActiveResourcesInfo()) if (resource === 'TCPSocketWrap') count += 1;
  return count;
}
