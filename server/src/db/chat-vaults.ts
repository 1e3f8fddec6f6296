import type { Database } from './database.ts';
import type { ChatVaultRow } from './schema.ts';

export async function findChatVault(db: Database, userId: string): Promise<ChatVaultRow | undefined> {
  return db.selectFrom('chat_vaults').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Creates the vault (version 1); a second one for the same user is a unique violation. */
export async function insertChatVault(db: Database, vault: ChatVaultRow): Promise<void> {
  await db.insertInto('chat_vaults').values(vault).execute();
}

/** Replaces the wrapping when the stored version is `expectedVersion`; returns whether it did. */
export async function updateChatVault(
  db: Database,
  input: Omit<ChatVaultRow, 'created_at' | 'version'> & { expectedVersion: number },
): Promise<boolean> {
  const { expectedVersion, user_id: userId, ...values } = input;
  const result = await db
    .updateTable('chat_vaults')
    .set({ ...values, version: expectedVersion + 1 })
    .where('user_id', '=', userId)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
