import type { Kysely } from 'kysely';

/**
 * What a route costs us beyond input and output tokens (cached input per 1M tokens, one image), and what each call
 * cost us upstream (`usage_records.upstream_cost_micros`, from the route that served it, at the route's cost when the
 * call was made; null for calls made before this migration), so the revenue report can show cost of goods and
 * margin per day and per model.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('routes').addColumn('cached_input_cost_micros', 'bigint').execute();
  await db.schema.alterTable('routes').addColumn('per_request_cost_micros', 'bigint').execute();
  await db.schema.alterTable('usage_records').addColumn('upstream_cost_micros', 'bigint').execute();
}
