import type { Database } from './database.ts';

/** The names of the rows of `instance_settings`. */
export type InstanceSettingName = 'master_key_fingerprint';

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
