import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';

/** Owner read and write only: the database holds password hashes, key hashes and the ledger. */
export const privateFileMode = 0o600;
const privateDirectoryMode = 0o700;

/**
 * Creates a SQLite database file (and its folder) readable by the gateway's user only, before SQLite opens it:
 * SQLite gives its `-wal` and `-shm` files the database file's mode, so all three stay private whatever the umask.
 * Files an older version left with wider modes are narrowed.
 */
export function createPrivateSqliteFile(filePath: string): void {
  mkdirSync(path.dirname(filePath), { recursive: true, mode: privateDirectoryMode });
  closeSync(openSync(filePath, 'a', privateFileMode));
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      chmodSync(`${filePath}${suffix}`, privateFileMode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
