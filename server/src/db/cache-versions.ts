import { sql } from 'kysely';
import type { Database } from './database.ts';

export type CacheName = 'api_keys' | 'balances' | 'catalog' | 'routes' | 'account_terms';

/** Marks cached data as changed; every node polls these counters and reloads what moved. */
export async function bumpCacheVersion(db: Database, name: CacheName): Promise<void> {
  await db
    .updateTable('cache_versions')
    .set({ version: sql<number>`version + 1` })
    .where('name', '=', name)
    .execute();
}

export async function listCacheVersions(db: Database): Promise<Record<CacheName, number>> {
  const rows = await db.selectFrom('cache_versions').select(['name', 'version']).execute();
  const versions: Record<CacheName, number> = { api_keys: 0, balances: 0, catalog: 0, routes: 0, account_terms: 0 };
  for (const row of rows) if (row.name in versions) versions[row.name as CacheName] = row.version;
  return versions;
}
