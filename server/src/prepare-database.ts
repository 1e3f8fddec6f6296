import { seedPriceList } from './catalog/seed-price-list.ts';
import type { Config } from './config/config.ts';
import { seedCatalog } from './config/seed-catalog.ts';
import type { Database } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Clock } from './lib/clock.ts';

/** Applies pending migrations and seeds catalogue models that are missing; safe to run from several processes. */
export async function prepareDatabase(deps: { db: Database; clock: Clock }, config: Config): Promise<void> {
  await migrateToLatest(deps.db);
  await seedPriceList(
    { db: deps.db, nowMs: deps.clock.nowMs() },
    {
      models: seedCatalog,
      pricingRule: config.pricingRule,
      withCurrentGeneration: config.seedGeneration === 'current',
    },
  );
}
