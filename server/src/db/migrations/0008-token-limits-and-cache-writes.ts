import { sql, type Kysely } from 'kysely';

/**
 * Tokens-per-minute limits: a key's own (`api_keys.tokens_per_minute`) and the operator's budget for a whole account
 * (`account_terms.tokens_per_minute`); null means no token limit. And the price of a prompt-cache write as a share
 * of the input rate (`models.cache_write_rate_basis_points`, 12,500 = 1.25×; null: writes cost the input rate).
 * Claude models already in the price list get Anthropic's rate for 5-minute cache writes, 1.25× input, which is the
 * same for every Claude model; new models take it from the price data when they are seeded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('tokens_per_minute', 'integer').execute();
  await db.schema.alterTable('account_terms').addColumn('tokens_per_minute', 'integer').execute();
  await db.schema.alterTable('models').addColumn('cache_write_rate_basis_points', 'integer').execute();
  await sql`update models set cache_write_rate_basis_points = 12500 where family = 'Anthropic' and kind = 'text'`.execute(
    db,
  );
}
