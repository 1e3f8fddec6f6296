import { setTimeout as sleep } from 'node:timers/promises';
import { checkpointAfterDeletion } from '../db/chat-conversations.ts';
import type { Database } from '../db/database.ts';

/** The longest one attempt waits for another connection's read, write or checkpoint; the event loop waits with it. */
const busyWaitMs = 20;
/** Pauses between the attempts made before the deletion is answered (about 0.8 s in all). */
const quickPausesMs = [25, 50, 100, 200, 400] as const;
/** After those, the pause between attempts made in the background. */
const backgroundPauseMs = 1000;

/** Where a deletion whose bytes could not be overwritten at once is reported. */
export type ErasureLog = {
  warn: (fields: { pauseMs: number }, message: string) => void;
  info: (message: string) => void;
};

/**
 * Overwrites a deleted conversation's pages on disk (SQLite; see `checkpointAfterDeletion`). A few quick attempts are
 * made before the deletion is answered, pausing in between without holding the event loop; should another connection
 * still keep the log busy, the deletion is answered, a warning logged, and the attempts go on once a second in the
 * background until one succeeds or the database closes (whose closing checkpoint empties the log). Resolves whether
 * the bytes were overwritten before the answer.
 */
export async function eraseDeletedConversation(deps: { db: Database; log: ErasureLog }): Promise<boolean> {
  if (await checkpointAfterDeletion(deps.db, { busyWaitMs })) return true;
  for (const pauseMs of quickPausesMs) {
    await sleep(pauseMs);
    if (await checkpointAfterDeletion(deps.db, { busyWaitMs })) return true;
  }
  deps.log.warn(
    { pauseMs: backgroundPauseMs },
    'a deleted chat conversation is not yet overwritten on disk: another connection keeps the SQLite log busy; retrying',
  );
  void retryInBackground(deps);
  return false;
}

async function retryInBackground(deps: { db: Database; log: ErasureLog }): Promise<void> {
  for (;;) {
    // Unreferenced: a pending retry does not keep a stopping process alive.
    await sleep(backgroundPauseMs, undefined, { ref: false });
    try {
      if (await checkpointAfterDeletion(deps.db, { busyWaitMs })) {
        deps.log.info('the deleted chat conversation is now overwritten on disk');
        return;
      }
    } catch {
      // The database was closed: the gateway is stopping, and its closing checkpoint empties the log.
      return;
    }
  }
}
