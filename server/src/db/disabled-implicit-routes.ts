import type { Database } from './database.ts';

/** The ids of the environment and sandbox routes the operator switched off. */
export async function listDisabledImplicitRouteIds(db: Database): Promise<string[]> {
  const rows = await db.selectFrom('disabled_implicit_routes').select('route_id').execute();
  return rows.map((row) => row.route_id);
}

/** Switches an environment or sandbox route off (again: no change) or back on. */
export async function setImplicitRouteDisabled(
  db: Database,
  input: { routeId: string; isDisabled: boolean; nowMs: number },
): Promise<void> {
  if (!input.isDisabled) {
    await db.deleteFrom('disabled_implicit_routes').where('route_id', '=', input.routeId).execute();
    return;
  }
  await db
    .insertInto('disabled_implicit_routes')
    .values({ route_id: input.routeId, disabled_at: input.nowMs })
    .onConflict((conflict) => conflict.column('route_id').doNothing())
    .execute();
}
