import type { Kysely } from 'kysely';

/**
 * Per-image list prices of an image model by quality and size (`*` for any), in integer micro-USD. A tier prices an
 * image in proportion to the model's flat per-request price (see `images/price-images.ts`), so the operator's price
 * and every discount apply to it unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('image_price_tiers')
    .addColumn('model_id', 'text', (column) => column.notNull().references('models.id'))
    .addColumn('quality', 'text', (column) => column.notNull())
    .addColumn('size', 'text', (column) => column.notNull())
    .addColumn('list_per_request_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('image_price_tiers_pk', ['model_id', 'quality', 'size'])
    .execute();
}
