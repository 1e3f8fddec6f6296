import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { privateFileMode } from './create-private-file.ts';
import { z } from 'zod';
import type { LedgerTransaction } from './ledger.ts';
import type { UsageRecordRow } from './schema.ts';

/**
 * A call's charge as the settlement writes it: the ledger debit and the usage record, written together. The
 * upstream cost may be absent: journals written before it was recorded (migration 0041) replay without it.
 */
export type JournaledCharge = { ledger: LedgerTransaction; usage: JournaledUsage };

export type JournaledUsage = Omit<UsageRecordRow, 'upstream_cost_micros'> & { upstream_cost_micros?: number | null };

/** Which file a charge went to; the writer tells the journal when it is in the database. */
export type JournalSegment = { readonly fileName: string; appended: number; applied: number; bytes: number };

/**
 * Append-only files in `DATA_DIR/settlements/`, one JSON line per charge, written with a plain `write` before the
 * client sees the end of its answer. A write that returned is in the kernel's page cache, so it survives `kill -9`
 * of the process (not a power cut: the database commit that follows is the durable copy). Lines hold counts, ids
 * and amounts only, never request or response text. A segment is deleted once every charge in it is in the
 * database; a new one starts past `maxSegmentBytes` (4 MiB unless told).
 */
export type SettlementJournal = {
  /**
   * Charges in one `write` (the calls settled in one event-loop turn), each already serialised as
   * `JSON.stringify(charge)` (no newline), so a caller that needs the JSON again (the SQLite writer thread's group)
   * serialises each charge once.
   */
  appendLines: (lines: readonly string[]) => JournalSegment;
  /** Call after the charges are committed to the database. */
  markApplied: (segment: JournalSegment, count: number) => void;
  close: () => void;
};

const defaultMaxSegmentBytes = 4 * 1024 * 1024;
const segmentPattern = /^settlements-(\d+)\.ndjson$/;

function segmentFiles(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => segmentPattern.test(name))
    .sort((a, b) => Number(segmentPattern.exec(a)?.[1]) - Number(segmentPattern.exec(b)?.[1]));
}

/** Opens the journal for appending; call `readUnappliedCharges` first so that older segments are replayed. */
export function openSettlementJournal(
  directory: string,
  options: { maxSegmentBytes?: number } = {},
): SettlementJournal {
  const maxSegmentBytes = options.maxSegmentBytes ?? defaultMaxSegmentBytes;
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const existing = segmentFiles(directory);
  let nextNumber = existing.length === 0 ? 1 : Number(segmentPattern.exec(existing.at(-1) ?? '')?.[1]) + 1;
  let current: JournalSegment;
  let fd: number;
  const open = () => {
    current = { fileName: `settlements-${nextNumber}.ndjson`, appended: 0, applied: 0, bytes: 0 };
    nextNumber += 1;
    fd = openSync(path.join(directory, current.fileName), 'a', privateFileMode);
  };
  const removeIfDone = (segment: JournalSegment) => {
    if (segment !== current && segment.applied === segment.appended) {
      rmSync(path.join(directory, segment.fileName), { force: true });
    }
  };
  open();
  const appendLines = (lines: readonly string[]) => {
    if (current.bytes > maxSegmentBytes) {
      const finished = current;
      closeSync(fd);
      open();
      removeIfDone(finished);
    }
    let text = '';
    for (const line of lines) text += `${line}\n`;
    // Written as a string: Node encodes it on the way to the system call, with no Buffer of our own per write.
    const written = writeSync(fd, text);
    const length = Buffer.byteLength(text);
    current.bytes += written;
    if (written !== length) {
      // A torn line (a full disk) ends this segment: replay skips it, and no later line is glued to it. The charges
      // of this write are then written to the database by the caller; a whole line of theirs that landed and is
      // replayed later counts once, since every charge is idempotent.
      const torn = current;
      closeSync(fd);
      open();
      removeIfDone(torn);
      throw new Error(`the settlement journal took ${written} of ${length} bytes`);
    }
    current.appended += lines.length;
    return current;
  };
  return {
    appendLines,
    markApplied: (segment, count) => {
      segment.applied += count;
      removeIfDone(segment);
    },
    close: () => {
      closeSync(fd);
      if (current.appended === current.applied) rmSync(path.join(directory, current.fileName), { force: true });
    },
  };
}

/**
 * Makes this process the journal's only writer: a second gateway on the same `DATA_DIR` would replay and delete
 * charges the first is still writing. The lock names its owner by process id and start time (from /proc), so a lock
 * left by a process that died is taken over even when a new process got the same id (a restarted container's PID 1,
 * a reboot); a second gateway inside this very process is refused.
 */
export function claimJournalDirectory(directory: string): { release: () => void } {
  mkdirSync(directory, { recursive: true });
  const lockPath = path.join(directory, 'owner.pid');
  const owner = describeProcess(process.pid);
  try {
    writeFileSync(lockPath, `${owner}\n`, { flag: 'wx', mode: privateFileMode });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const recorded = readFileSync(lockPath, 'utf8').trim();
    const recordedPid = Number(recorded.split(' ')[0]);
    if (isSameLiveProcess(recorded, recordedPid)) {
      throw new Error(
        `another gateway (process ${recordedPid}) uses ${directory}; every gateway node needs a DATA_DIR of its own`,
      );
    }
    writeFileSync(lockPath, `${owner}\n`);
  }
  return { release: () => rmSync(lockPath, { force: true }) };
}

/** `<pid> <start time>`: the start time (clock ticks since boot, /proc/<pid>/stat field 22) where Linux gives it. */
function describeProcess(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime ? `${pid} ${startTime}` : String(pid);
  } catch {
    return String(pid);
  }
}

function isSameLiveProcess(recorded: string, pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // Alive: the same process only if it started when the recorded one did (a reused id has another start time).
  return describeProcess(pid) === recorded || !recorded.includes(' ');
}

const ledgerSchema = z.object({
  id: z.string(),
  idempotencyKey: z.string(),
  kind: z.enum(['welcome', 'adjustment', 'top_up', 'usage', 'subscription', 'refund']),
  reason: z.string(),
  createdAt: z.number().int(),
  entries: z.array(z.object({ account: z.string(), amountMicros: z.number().int() })),
});

const journaledChargeSchema = z.object({
  ledger: ledgerSchema,
  usage: z.looseObject({ request_id: z.string(), user_id: z.string(), cost_micros: z.number().int() }),
});

/**
 * The charges of segments an earlier process left (it stopped before writing them all to the database), oldest
 * first, and the files they came from. A torn last line (the process died inside a write) is skipped: its call never
 * ended, so its hold was never captured.
 */
export function readUnappliedCharges(directory: string): { charges: JournaledCharge[]; files: string[] } {
  mkdirSync(directory, { recursive: true });
  const files = segmentFiles(directory).map((name) => path.join(directory, name));
  const charges: JournaledCharge[] = [];
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const charge = parseJournalLine(line);
      if (charge) charges.push(charge);
    }
  }
  return { charges, files };
}

export function removeJournalFiles(files: readonly string[]): void {
  for (const file of files) unlinkSync(file);
}

/** A charge as `append` writes it (a journal line, or the copy a node keeps in Redis); undefined when malformed. */
export function parseJournalLine(line: string): JournaledCharge | undefined {
  try {
    // Our own file, written by `append` above; every line is still checked against the schema before use.
    // eslint-disable-next-line no-restricted-properties
    const parsed = journaledChargeSchema.safeParse(JSON.parse(line));
    return parsed.success ? (parsed.data as unknown as JournaledCharge) : undefined;
  } catch {
    return undefined;
  }
}
