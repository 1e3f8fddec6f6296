import type { Kysely } from 'kysely';

/**
 * Models become data the operator manages at run time (docs/catalogue.md): the vendor whose own API serves a model
 * and its id there (so a model added after the release gets its vendor route and sandbox route without a code
 * change; null on rows seeded before this migration until the next start fills them from the seed catalogue), the
 * remaining capabilities, and retirement (a retired model leaves the price list but keeps its row, so usage history
 * still names it; `successor_id` is the model its callers are told to use instead).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const models = () => db.schema.alterTable('models');
  await models().addColumn('provider', 'text').execute();
  await models().addColumn('upstream_model', 'text').execute();
  await models()
    .addColumn('supports_json_schema', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await models()
    .addColumn('supports_reasoning', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await models()
    .addColumn('supports_web_search', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await models().addColumn('retired_at', 'bigint').execute();
  await models().addColumn('successor_id', 'text').execute();
}
