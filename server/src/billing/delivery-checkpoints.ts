import type { JournaledCharge } from '../db/settlement-journal.ts';

/** How often a node writes what its streams delivered: the most a crash can leave unbilled is this much output. */
export const checkpointIntervalMs = 250;

export type DeliveryCheckpoints = {
  /** A chunk reached the client: its stream's checkpoint is due at the next write. Costs a map update. */
  record: (holdId: string, charge: () => JournaledCharge) => void;
  /** The call settled or released: no more checkpoints for it. */
  forget: (holdId: string) => void;
  /** Redis lost what was written (a re-registration): every open stream's checkpoint is due again. */
  rewriteAll: () => void;
};

/**
 * Collects the delivery of every stream a node relays and writes the due ones together once per interval (one
 * batch for all streams, none on the answer's path), building each charge only then.
 */
export function createDeliveryCheckpoints(deps: {
  /** The due checkpoints, and the holds closed since the last write (a store that cannot drop them atomically). */
  write: (checkpoints: ReadonlyArray<[holdId: string, charge: string]>, closed: readonly string[]) => Promise<void>;
  onError: (error: unknown) => void;
  intervalMs?: number;
}): DeliveryCheckpoints {
  const intervalMs = deps.intervalMs ?? checkpointIntervalMs;
  const open = new Map<string, () => JournaledCharge>();
  const due = new Set<string>();
  const closed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const writeDue = () => {
    timer = undefined;
    const batch: Array<[string, string]> = [];
    for (const holdId of due) {
      const build = open.get(holdId);
      if (build) batch.push([holdId, JSON.stringify(build())]);
    }
    due.clear();
    const closedNow = [...closed];
    closed.clear();
    if (batch.length > 0 || closedNow.length > 0) deps.write(batch, closedNow).catch(deps.onError);
  };
  const schedule = () => {
    if (timer || (due.size === 0 && closed.size === 0)) return;
    timer = setTimeout(writeDue, intervalMs);
    // A pending checkpoint never keeps a stopping process alive: its calls are settled (or lost) anyway.
    timer.unref();
  };

  return {
    record: (holdId, charge) => {
      open.set(holdId, charge);
      due.add(holdId);
      schedule();
    },
    forget: (holdId) => {
      if (!open.delete(holdId)) return;
      due.delete(holdId);
      closed.add(holdId);
      schedule();
    },
    rewriteAll: () => {
      for (const holdId of open.keys()) due.add(holdId);
      schedule();
    },
  };
}
