import type { Selectable } from 'kysely';
import type { Database } from './database.ts';
import type { FxRatesTable } from './schema.ts';

export type FxRateRow = Selectable<FxRatesTable>;

/** Stores a day's rate; a second fetch of the same day replaces it (the feed may correct itself). */
export async function upsertFxRate(db: Database, row: FxRateRow): Promise<void> {
  await db
    .insertInto('fx_rates')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['currency', 'rate_date']).doUpdateSet({
        micros_per_usd: row.micros_per_usd,
        source: row.source,
        fetched_at: row.fetched_at,
      }),
    )
    .execute();
}

/** The newest stored rate of a currency (by the feed's date), or undefined before the first fetch. */
export async function findLatestFxRate(db: Database, currency: string): Promise<FxRateRow | undefined> {
  return db
    .selectFrom('fx_rates')
    .selectAll()
    .where('currency', '=', currency)
    .orderBy('rate_date', 'desc')
    .limit(1)
    .executeTakeFirst();
}
