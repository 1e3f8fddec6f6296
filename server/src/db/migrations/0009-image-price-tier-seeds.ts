import { sql, type Kysely } from 'kysely';

/**
 * Which seed-catalogue price tiers have been written once. The seed adds a tier only the first time, so a tier the
 * operator removed (CLI `model delete-image-tier`, or the operator API) stays removed across restarts. The tiers
 * present now were all written by the seed (nothing else could add one), so they are marked as seeded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('image_price_tier_seeds')
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('quality', 'text', (column) => column.notNull())
    .addColumn('size', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('image_price_tier_seeds_pk', ['model_id', 'quality', 'size'])
    .execute();
  await sql`insert into image_price_tier_seeds (model_id, quality, size)
    select model_id, quality, size from image_price_tiers`.execute(db);
}
