import type { Database } from './database.ts';

/** The names of the rows of `instance_settings`. */
export type InstanceSettingName = 'master_key_fingerprint' | 'model_sync_settings' | 'model_sync_last_run';

export async function findInstanceSetting(db: Database, name: InstanceSettingName): Promise<string | undefined> {
  const row = await db.selectFrom('instance_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** Stores the value unless the name already has one (first writer wins); returns the value now stored. */
export async function insertInstanceSettingIfAbsent(
  db: Database,
  input: { name: InstanceSettingName; value: string; nowMs: number },
): Promise<string> {
  await db
    .insertInto('instance_settings')
    .values({ name: input.name, value: input.value, created_at: input.nowMs })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const stored = await findInstanceSetting(db, input.name);
  if (stored === undefined) throw new Error(`instance setting ${input.name} was not stored`);
  return stored;
}

/** Stores the value, replacing any. */
export async function putInstanceSetting(
  db: Database,
  input: { name: InstanceSettingName; value: string; nowMs: number },
): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ name: input.name, value: input.value, created_at: input.nowMs })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: input.value }))
    .execute();
}

/**
 * Replaces the value only if it is still `expected` (undefined: absent), so that of several nodes racing for the
 * same turn exactly one wins. True for the winner.
 */
export async function claimInstanceSetting(
  db: Database,
  input: { name: InstanceSettingName; expected: string | undefined; value: string; nowMs: number },
): Promise<boolean> {
  if (input.expected === undefined) {
    const result = await db
      .insertInto('instance_settings')
      .values({ name: input.name, value: input.value, created_at: input.nowMs })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  const result = await db
    .updateTable('instance_settings')
    .set({ value: input.value })
    .where('name', '=', input.name)
    .where('value', '=', input.expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
