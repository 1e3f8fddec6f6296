import type { Updateable } from 'kysely';
import type { Database } from './database.ts';
import type { NewRouteRow, RouteRow, RoutesTable } from './schema.ts';

/** The columns an operator may change after a route is created (never its id, model or creation time). */
export type RouteChanges = Omit<Updateable<RoutesTable>, 'id' | 'model_id' | 'created_at' | 'is_sandbox'>;

export async function insertRoute(db: Database, route: NewRouteRow): Promise<void> {
  await db.insertInto('routes').values(route).execute();
}

export async function listRoutes(db: Database): Promise<RouteRow[]> {
  return db.selectFrom('routes').selectAll().orderBy('model_id').orderBy('priority').orderBy('id').execute();
}

export async function findRoute(db: Database, routeId: string): Promise<RouteRow | undefined> {
  return db.selectFrom('routes').selectAll().where('id', '=', routeId).executeTakeFirst();
}

/** Applies the given changes; false when no route has that id. */
export async function updateRoute(db: Database, input: { routeId: string; changes: RouteChanges }): Promise<boolean> {
  if (Object.keys(input.changes).length === 0) return (await findRoute(db, input.routeId)) !== undefined;
  const result = await db.updateTable('routes').set(input.changes).where('id', '=', input.routeId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setRouteEnabled(db: Database, input: { routeId: string; isEnabled: boolean }): Promise<boolean> {
  return updateRoute(db, { routeId: input.routeId, changes: { enabled: input.isEnabled ? 1 : 0 } });
}
