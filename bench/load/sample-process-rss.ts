import { readFileSync } from 'node:fs';

/**
 * Resident memory peaks of a measured system. Under `--processes N` the measured pid is the launcher and the gateways
 * are its child processes: each is a process of its own, so each is judged against the per-process target, and the
 * launcher is reported beside them (never summed with them).
 */
export type RssPeaks = {
  /** The figure judged against the per-process target: the process itself, or the largest of its child processes. */
  peakRssMb: number;
  /** The measured process's own peak when it has child processes (the launcher of `--processes N`). */
  launcherPeakRssMb: number | undefined;
  /** Each child process's peak, in the order they were started. */
  workerPeakRssMb: number[];
};

/** VmRSS of a process, and of each of its child processes by pid, in MB (Linux /proc). */
export function readProcessRss(pid: number): { ownMb: number; childrenMb: Map<number, number> } {
  const childrenMb = new Map<number, number>();
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .split(' ')
    .filter((id) => id !== '')
    .map(Number);
  for (const child of children) {
    try {
      childrenMb.set(child, readTreeRssMb(child));
    } catch {
      // A child that ended between the listing and the read (a worker being restarted) has no figure.
    }
  }
  return { ownMb: readVmRssMb(pid), childrenMb };
}

/** Keeps the peak of each process across samples of `readProcessRss`. */
export function trackRssPeaks() {
  let ownPeakMb: number | undefined;
  const childPeaksMb = new Map<number, number>();
  return {
    add: (sample: ReturnType<typeof readProcessRss>) => {
      ownPeakMb = Math.max(ownPeakMb ?? 0, sample.ownMb);
      for (const [child, mb] of sample.childrenMb) childPeaksMb.set(child, Math.max(childPeaksMb.get(child) ?? 0, mb));
    },
    peaks: (): RssPeaks | undefined => {
      if (ownPeakMb === undefined) return undefined;
      const workerPeakRssMb = [...childPeaksMb].sort(([a], [b]) => a - b).map(([, mb]) => mb);
      if (workerPeakRssMb.length === 0) return { peakRssMb: ownPeakMb, launcherPeakRssMb: undefined, workerPeakRssMb };
      return { peakRssMb: Math.max(...workerPeakRssMb), launcherPeakRssMb: ownPeakMb, workerPeakRssMb };
    },
  };
}

function readVmRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** A child process with children of its own (another system's worker pool) counts as one process with them. */
function readTreeRssMb(pid: number): number {
  const { ownMb, childrenMb } = readProcessRss(pid);
  return ownMb + [...childrenMb.values()].reduce((sum, mb) => sum + mb, 0);
}
