import type { Kysely } from 'kysely';

/**
 * Per-route operating settings: the upstream's cost, a concurrency cap, timeouts, the accounts a route is reserved
 * for, and the extra address parts of Azure OpenAI (api-version) and Vertex AI (project, location). Null means "the
 * default" for every one of them. One statement per column: SQLite adds a single column per ALTER TABLE.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const columns: ReadonlyArray<readonly [string, 'bigint' | 'integer' | 'text']> = [
    ['input_cost_micros', 'bigint'],
    ['output_cost_micros', 'bigint'],
    ['max_concurrency', 'integer'],
    ['connect_timeout_ms', 'integer'],
    ['first_byte_timeout_ms', 'integer'],
    ['idle_timeout_ms', 'integer'],
    ['reserved_for_user_ids', 'text'],
    ['api_version', 'text'],
    ['vertex_project', 'text'],
    ['vertex_location', 'text'],
    ['updated_at', 'bigint'],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable('routes').addColumn(name, type).execute();
  }
}
