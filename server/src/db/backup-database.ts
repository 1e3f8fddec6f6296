import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { sql } from 'kysely';
import type { Database } from './database.ts';
import { privateFileMode } from './create-private-file.ts';

/**
 * Writes a consistent copy of a SQLite database to `targetPath` while the gateway keeps serving: `VACUUM INTO` reads
 * the database in one read transaction (WAL mode lets writers go on meanwhile) and writes a compact single file with
 * every committed row, balances, ledger, keys and all. The target is created private (0600) first; an existing
 * non-empty file is refused, so a backup never overwrites anything.
 * @see https://www.sqlite.org/lang_vacuum.html#vacuuminto
 */
export async function backupSqliteDatabase(db: Database, targetPath: string): Promise<{ bytes: number }> {
  if (existsSync(targetPath) && statSync(targetPath).size > 0) {
    throw new Error(`${targetPath} exists already; choose a new file name`);
  }
  closeSync(openSync(targetPath, 'w', privateFileMode));
  await sql`VACUUM INTO ${targetPath}`.execute(db);
  return { bytes: statSync(targetPath).size };
}
