import type { Database } from './database.ts';
import type { AccountTokensTable } from './schema.ts';

export type AccountTokenPurpose = AccountTokensTable['purpose'];
export type AccountTokenRow = AccountTokensTable;

export async function insertAccountToken(db: Database, token: AccountTokenRow): Promise<void> {
  await db.insertInto('account_tokens').values(token).execute();
}

export async function findAccountTokenByHash(
  db: Database,
  input: { tokenHash: string; purpose: AccountTokenPurpose },
): Promise<AccountTokenRow | undefined> {
  return db
    .selectFrom('account_tokens')
    .selectAll()
    .where('token_hash', '=', input.tokenHash)
    .where('purpose', '=', input.purpose)
    .executeTakeFirst();
}

/**
 * Marks a token used if it still was not: true for the one caller that wins, false for every other (a link clicked
 * twice at once is used once).
 */
export async function markAccountTokenUsed(db: Database, input: { id: string; usedAt: number }): Promise<boolean> {
  const result = await db
    .updateTable('account_tokens')
    .set({ used_at: input.usedAt })
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every unused link of one purpose for a user: a new link, or a reset, makes the earlier ones void. */
export async function voidAccountTokens(
  db: Database,
  input: { userId: string; purpose: AccountTokenPurpose; usedAt: number },
): Promise<void> {
  await db
    .updateTable('account_tokens')
    .set({ used_at: input.usedAt })
    .where('user_id', '=', input.userId)
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** How many links of a purpose were made for a user since a time (to refuse a flood of mail to one address). */
export async function countAccountTokensSince(
  db: Database,
  input: { userId: string; purpose: AccountTokenPurpose; sinceMs: number },
): Promise<number> {
  const row = await db
    .selectFrom('account_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', input.userId)
    .where('purpose', '=', input.purpose)
    .where('created_at', '>=', input.sinceMs)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
