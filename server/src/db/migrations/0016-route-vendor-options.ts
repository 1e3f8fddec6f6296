import { type Kysely, sql } from 'kysely';

type OldRouteRow = {
  id: string;
  api_version: string | null;
  vertex_project: string | null;
  vertex_location: string | null;
};

/**
 * A route's vendor-specific settings (Azure's api-version, Vertex's project and location) move from one column each
 * into one `vendor_options` field: a JSON object checked by the vendor's own schema, so a vendor with new options
 * needs no migration. The values are copied over, then the three columns are dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('routes').addColumn('vendor_options', 'text').execute();
  const rows = await sql<OldRouteRow>`
    select id, api_version, vertex_project, vertex_location from routes
    where api_version is not null or vertex_project is not null or vertex_location is not null
  `.execute(db);
  for (const row of rows.rows) {
    const options = Object.fromEntries(
      Object.entries({
        api_version: row.api_version,
        vertex_project: row.vertex_project,
        vertex_location: row.vertex_location,
      }).filter(([, value]) => value !== null),
    );
    await sql`update routes set vendor_options = ${JSON.stringify(options)} where id = ${row.id}`.execute(db);
  }
  for (const column of ['api_version', 'vertex_project', 'vertex_location']) {
    await db.schema.alterTable('routes').dropColumn(column).execute();
  }
}
