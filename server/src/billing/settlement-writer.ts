import type { ChargeWriter } from '../db/charge-writer.ts';
import { chunk } from '../lib/chunk.ts';
import type { Database } from '../db/database.ts';
import {
  openSettlementJournal,
  readUnappliedCharges,
  removeJournalFiles,
  type JournaledCharge,
  type JournalSegment,
  type SettlementJournal,
} from '../db/settlement-journal.ts';
import { recordCharges, type ChargesOutcome } from '../db/usage-records.ts';
import type { CommittedCharges, CreditHold, CreditHolds } from './credit-holds.ts';

/**
 * Settles calls without making their answers wait for the database: a charge is appended to the settlement journal
 * (a plain file write, which survives `kill -9`), its hold becomes a pending charge, and the answer ends. The charges
 * that arrive within a short window are then written to the database together, in one transaction (group commit),
 * and stop being pending. A process that dies with charges not yet written replays them from the journal when it
 * starts again; every charge is idempotent by its request id, so none is lost or counted twice (docs/billing.md).
 */
export type SettlementWriter = {
  /** Durable when this returns: the charge is journaled and its hold captured. */
  submit: (input: { charge: JournaledCharge; hold: CreditHold; capturedMicros: number }) => Promise<void>;
  /** Resolves once every charge submitted before this call is in the database (later ones are not waited for). */
  flush: () => Promise<void>;
  /** Writes what is queued (while the database answers), then closes the journal. */
  close: () => Promise<void>;
};

export type SettlementWriterDeps = {
  db: Database;
  /** Writes each group of charges; `db` writes a charge alone when the journal cannot take it. */
  chargeWriter: ChargeWriter;
  creditHolds: Pick<CreditHolds, 'capture' | 'applyCommitted'>;
  journalDirectory: string;
  onError: (error: unknown) => void;
  retryDelayMs?: number;
  /** Opens the journal (`openSettlementJournal`; a test gives one that fails, as on a full disk). */
  openJournal?: (directory: string) => SettlementJournal;
};

/** `line` is the charge's JSON as the journal wrote it, reused for the SQLite writer thread's group. */
type QueuedCharge = {
  charge: JournaledCharge;
  line: string;
  segment: JournalSegment;
  capturedMicros: number;
  holdId: string;
};

const maxBatchSize = 512;
const groupWindowMs = 10;
/** Past this many charges waiting for the database, new settlements wait for the writer (it has fallen behind). */
const maxQueuedCharges = 20_000;

export function createSettlementWriter(deps: SettlementWriterDeps): SettlementWriter {
  const journal = (deps.openJournal ?? openSettlementJournal)(deps.journalDirectory);
  const retryDelayMs = deps.retryDelayMs ?? 1000;
  let queue: QueuedCharge[] = [];
  let draining: Promise<void> | undefined;
  let isClosing = false;
  let submittedCount = 0;
  let writtenCount = 0;
  let progressWaiters: Array<() => void> = [];

  const announceProgress = () => {
    const waiters = progressWaiters;
    progressWaiters = [];
    for (const wake of waiters) wake();
  };

  const writeBatch = async (batch: readonly QueuedCharge[]): Promise<boolean> => {
    for (;;) {
      try {
        const outcome = await deps.chargeWriter.write(
          batch.map((item) => item.charge),
          batch.map((item) => item.line),
        );
        await deps.creditHolds.applyCommitted(toCommittedCharges(batch, outcome)).catch(deps.onError);
        for (const item of batch) journal.markApplied(item.segment, 1);
        writtenCount += batch.length;
        announceProgress();
        return true;
      } catch (error) {
        deps.onError(error);
        // The charges stay in the journal: on shutdown they are replayed at the next start instead.
        if (isClosing) return false;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      }
    }
  };

  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatchSize ? queue : queue.slice(0, maxBatchSize);
      queue = queue.length <= maxBatchSize ? [] : queue.slice(maxBatchSize);
      if (!(await writeBatch(batch))) return;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const drainNow = () => {
    clearTimeout(timer);
    timer = undefined;
    if (draining || queue.length === 0) return;
    draining = drain().finally(() => {
      draining = undefined;
      announceProgress();
      if (queue.length > 0 && !isClosing) drainSoon();
    });
  };
  // Charges settled within one window share a commit: the answers do not wait for it, so the window costs no latency.
  const drainSoon = () => {
    if (queue.length >= maxBatchSize) drainNow();
    else if (!draining && !timer) timer = setTimeout(drainNow, groupWindowMs);
  };
  const waitForProgress = () => new Promise<void>((resolve) => progressWaiters.push(resolve));
  const turnAppender = createTurnAppender(journal);

  return {
    submit: async (input) => {
      while (queue.length >= maxQueuedCharges && !isClosing) {
        drainNow();
        await waitForProgress();
      }
      // The capture leaves in the same turn as the journal's write, so the answer waits for the two at once instead of
      // one after the other (with Redis: one round trip fewer on its path). Sent first, it may land before the line
      // is written; the full-disk path below then uses it instead of capturing again.
      const journaled = turnAppender.append(input.charge);
      // The charge is about to be durable: a failure to move its hold must not fail the answer. (Redis away does not
      // throw: the hold's memory moves and the next registration re-posts it.)
      const captured = deps.creditHolds
        .capture(input.hold, input.capturedMicros, input.charge)
        .catch((error: unknown) => {
          deps.onError(error);
          return false;
        });
      let appended: { segment: JournalSegment; line: string };
      try {
        appended = await journaled;
      } catch (error) {
        // No journal (a full disk): write this charge to the database before the answer ends instead.
        deps.onError(error);
        await writeUnjournaled(deps, { ...input, isCaptured: await captured });
        return;
      }
      const capturedMicros = (await captured) ? input.capturedMicros : 0;
      queue.push({ charge: input.charge, ...appended, capturedMicros, holdId: input.hold.holdId });
      submittedCount += 1;
      drainSoon();
    },
    flush: async () => {
      const target = submittedCount;
      while (writtenCount < target && !isClosing) {
        drainNow();
        await waitForProgress();
      }
    },
    close: async () => {
      isClosing = true;
      // Lines waiting for this turn's write go to the journal before it closes (replayed at the next start).
      turnAppender.writeNow();
      drainNow();
      while (draining) await draining;
      announceProgress();
      journal.close();
    },
  };
}

/**
 * The charges settled in one event-loop turn go to the journal in one `write` (at `setImmediate`, after the turn's
 * I/O callbacks): each caller resumes once its line is written, so a settlement is as durable as before, and a node
 * under load makes one system call per turn instead of one per call. A failed write fails every charge of it (each
 * then goes to the database directly).
 */
function createTurnAppender(journal: SettlementJournal): {
  append: (charge: JournaledCharge) => Promise<{ segment: JournalSegment; line: string }>;
  writeNow: () => void;
} {
  let pending: {
    charge: JournaledCharge;
    resolve: (journaled: { segment: JournalSegment; line: string }) => void;
    reject: (error: unknown) => void;
  }[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const writeNow = () => {
    clearImmediate(scheduled);
    scheduled = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      const lines = batch.map((item) => JSON.stringify(item.charge));
      const segment = journal.appendLines(lines);
      for (const [index, item] of batch.entries()) item.resolve({ segment, line: lines[index] ?? '' });
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };
  return {
    append: (charge) =>
      new Promise((resolve, reject) => {
        scheduled ??= setImmediate(writeNow);
        pending.push({ charge, resolve, reject });
      }),
    writeNow,
  };
}

/**
 * A charge the journal could not take (a full disk), its capture already sent: written to the database at once, then
 * applied like a group commit, so its pending amount and its copy in Redis go. When the database fails too, the call
 * is not charged: its captured amount stops being pending (the balance is unchanged) and the error goes on.
 */
async function writeUnjournaled(
  deps: Pick<SettlementWriterDeps, 'db' | 'creditHolds' | 'onError'>,
  input: { charge: JournaledCharge; hold: CreditHold; capturedMicros: number; isCaptured: boolean },
): Promise<void> {
  const written = {
    charge: input.charge,
    capturedMicros: input.isCaptured ? input.capturedMicros : 0,
    holdId: input.hold.holdId,
  };
  let outcome: ChargesOutcome;
  try {
    outcome = await recordCharges(deps.db, [input.charge]);
  } catch (error) {
    const dropped = { userId: input.hold.userId, capturedMicros: written.capturedMicros, balance: undefined };
    await deps.creditHolds.applyCommitted([{ ...dropped, holdIds: [input.hold.holdId] }]).catch(deps.onError);
    throw error;
  }
  await deps.creditHolds.applyCommitted(toCommittedCharges([written], outcome));
}

function toCommittedCharges(
  batch: readonly Pick<QueuedCharge, 'charge' | 'capturedMicros' | 'holdId'>[],
  outcome: ChargesOutcome,
): CommittedCharges[] {
  const balances = new Map(outcome.balances.map((balance) => [balance.userId, balance]));
  return batch.map((item) => {
    const userId = item.charge.usage.user_id;
    return { userId, capturedMicros: item.capturedMicros, balance: balances.get(userId), holdIds: [item.holdId] };
  });
}

/**
 * At start, before any call is served: writes the charges an earlier process journaled but did not write to the
 * database (idempotently) and removes those journal files. Returns how many there were and whose accounts they are.
 */
export async function recoverSettlementJournal(deps: {
  db: Database;
  journalDirectory: string;
}): Promise<{ chargeCount: number; userIds: string[] }> {
  const { charges, files } = readUnappliedCharges(deps.journalDirectory);
  for (const part of chunk(charges, maxBatchSize)) await recordCharges(deps.db, part);
  removeJournalFiles(files);
  return { chargeCount: charges.length, userIds: [...new Set(charges.map((charge) => charge.usage.user_id))] };
}
