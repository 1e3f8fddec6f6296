import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How far V8 may let the old generation grow past its live size with many connections open (decisions 1760, 1840). */
export const cappedGrowthPercent = 10;

/**
 * Open TCP sockets (clients and upstreams together) from which the heap is held small: 1,000 open streams hold about
 * 2,000, the benchmark's c=64 throughput run about 130, where the old generation's cap cost a fifth of the requests per
 * second.
 */
export const manySocketsThreshold = 400;

/** The V8 flags set while many connections are open, and the ones that give V8 its own sizing back. */
export const manyConnectionsFlags = `--heap-growing-percent=${cappedGrowthPercent} --semi-space-growth-factor=1`;
export const fewConnectionsFlags = '--heap-growing-percent=0 --semi-space-growth-factor=2';

export type HeapWatchDeps = {
  countOpenSockets: () => number;
  setV8Flags: (flags: string) => void;
  /**
   * A full collection that also gives back memory (the young generation shrinks to its minimum), so the new limits
   * hold at once rather than after V8's next mark-compact.
   */
  collectGarbage: () => void;
};

/**
 * Holds V8's heap small while many connections are open, and gives V8 its own sizing back when they close.
 * - The old generation: with many streams open, V8's factor (up to 4× on a small heap) let it reach twice its live
 *   size with promoted garbage before each mark-compact; capped, that garbage stays near a tenth of the live size.
 * - The young generation: V8 only ever grows it (each doubling up to the semi-space cap) and shrinks it only in a
 *   memory-reducing collection, so after start-up or any busy minute it stays at the cap, 32 MB resident. With many
 *   slow streams the calls in flight at any instant are few and short, so it is shrunk to its minimum and kept there
 *   (growth factor 1); a few busy connections, where a larger young generation saves scavenges, get it back.
 * Many slow streams barely notice the extra collections; a few busy connections would pay for them in throughput,
 * so they never get the limits (decisions 1760, 1840, 1901). Returns the check, to run on a timer.
 */
export function watchHeapForManyConnections(deps: HeapWatchDeps): () => void {
  let isCapped = false;
  return () => {
    const shouldCap = deps.countOpenSockets() >= manySocketsThreshold;
    if (shouldCap === isCapped) return;
    isCapped = shouldCap;
    deps.setV8Flags(shouldCap ? manyConnectionsFlags : fewConnectionsFlags);
    if (shouldCap) deps.collectGarbage();
  };
}

/**
 * V8's full collection that gives memory back (the 'last-resort' flavour: the young generation shrinks to its
 * minimum, free pages are released), without a `gc` global in the gateway's own context. A plain `gc()` leaves the
 * young generation at its size.
 */
export function exposeMemoryReducingCollection(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** The process's open TCP sockets, from Node's list of what keeps the event loop alive. */
export function countOpenSockets(): number {
  let count = 0;
  for (const resource of process.getActiveResourcesInfo()) if (resource === 'TCPSocketWrap') count += 1;
  return count;
}
