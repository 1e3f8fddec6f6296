import type { Kysely } from 'kysely';

/**
 * The environment and sandbox routes an operator switched off. Those routes are not rows of `routes` (the gateway
 * derives them from the configuration at start), so their switch is kept here by route id (`environment:<model>`,
 * `sandbox:<model>`); a row's absence means the route is on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('disabled_implicit_routes')
    .addColumn('route_id', 'text', (column) => column.primaryKey())
    .addColumn('disabled_at', 'bigint', (column) => column.notNull())
    .execute();
}
