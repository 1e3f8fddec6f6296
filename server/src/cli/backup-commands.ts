import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { backupSqliteDatabase } from '../db/backup-database.ts';
import { UsageError, parseOptions, type CliContext } from './cli-context.ts';

/**
 * `backup --to FILE`: a consistent copy of the SQLite database, taken while the gateway serves (docs/operations.md,
 * "Backup and restore"). PostgreSQL is backed up with its own tools (`pg_dump`), which the same page describes.
 */
export async function runBackupCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  const options = parseOptions(action === undefined ? args : [action, ...args], {
    to: { type: 'string', required: true },
  });
  if (context.config.database.kind !== 'sqlite') {
    throw new UsageError(
      'backup copies the SQLite database; with DATABASE_URL use pg_dump (docs/operations.md, "Backup and restore")',
    );
  }
  const targetPath = path.resolve(options.to ?? '');
  if (existsSync(targetPath) && statSync(targetPath).size > 0) {
    throw new UsageError(`${targetPath} exists already; a backup never overwrites a file, choose a new name`);
  }
  const { bytes } = await backupSqliteDatabase(context.db, targetPath);
  context.print(`backed up ${context.config.database.filePath} to ${targetPath} (${bytes} bytes)`);
  context.print(
    'keep MASTER_KEY (or DATA_DIR/master.key) with it: without that key the stored vendor keys cannot be read',
  );
}
