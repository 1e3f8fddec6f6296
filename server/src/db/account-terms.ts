import type { Database } from './database.ts';
import type { AccountModelPriceRow, AccountTermsRow } from './schema.ts';

/** Every account's terms; with `userIds`, those accounts' only. */
export async function listAccountTerms(db: Database, userIds?: readonly string[]): Promise<AccountTermsRow[]> {
  if (userIds?.length === 0) return [];
  let query = db.selectFrom('account_terms').selectAll();
  if (userIds !== undefined) query = query.where('user_id', 'in', userIds);
  return query.execute();
}

export async function findAccountTerms(db: Database, userId: string): Promise<AccountTermsRow | undefined> {
  return db.selectFrom('account_terms').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Sets the account's contract discount and request and token budgets (one row per account). */
export async function upsertAccountTerms(db: Database, terms: AccountTermsRow): Promise<void> {
  await db
    .insertInto('account_terms')
    .values(terms)
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({
        contract_discount_basis_points: terms.contract_discount_basis_points,
        requests_per_minute: terms.requests_per_minute,
        tokens_per_minute: terms.tokens_per_minute,
        updated_at: terms.updated_at,
      }),
    )
    .execute();
}

/** Every account price; with `userId`, that account's only. */
export async function listAccountModelPrices(db: Database, userId?: string): Promise<AccountModelPriceRow[]> {
  let query = db.selectFrom('account_model_prices').selectAll();
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.orderBy('user_id').orderBy('model_id').execute();
}

export async function upsertAccountModelPrice(db: Database, price: AccountModelPriceRow): Promise<void> {
  await db
    .insertInto('account_model_prices')
    .values(price)
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'model_id']).doUpdateSet({
        input_rate_micros: price.input_rate_micros,
        output_rate_micros: price.output_rate_micros,
        cached_input_rate_micros: price.cached_input_rate_micros,
        per_request_micros: price.per_request_micros,
        updated_at: price.updated_at,
      }),
    )
    .execute();
}

/** Removes an account's own price for a model; returns whether there was one. */
export async function deleteAccountModelPrice(
  db: Database,
  input: { userId: string; modelId: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('account_model_prices')
    .where('user_id', '=', input.userId)
    .where('model_id', '=', input.modelId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
