import type { Database } from './database.ts';
import type { RouteRow } from './schema.ts';

export async function insertRoute(db: Database, route: RouteRow): Promise<void> {
  await db.insertInto('routes').values(route).execute();
}

export async function listRoutes(db: Database): Promise<RouteRow[]> {
  return db.selectFrom('routes').selectAll().orderBy('model_id').orderBy('priority').execute();
}

export async function setRouteEnabled(db: Database, input: { routeId: string; isEnabled: boolean }): Promise<boolean> {
  const result = await db
    .updateTable('routes')
    .set({ enabled: input.isEnabled ? 1 : 0 })
    .where('id', '=', input.routeId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
