import type { ImagePriceTierList } from '../../../contract/operator.ts';
import type { Database } from '../db/database.ts';
import { listModelImagePriceTiers } from '../db/image-price-tiers.ts';
import type { ModelRow } from '../db/schema.ts';
import { microsToUsd } from '../lib/money.ts';
import { priceTierMicros } from './price-images.ts';

/** An image model's tiers as the operator API and CLI show them, read from the database (not a node's cache). */
export async function readImagePriceTierList(db: Database, model: ModelRow): Promise<ImagePriceTierList> {
  const flat = {
    id: model.id,
    perRequestMicros: model.per_request_micros,
    listPerRequestMicros: model.list_per_request_micros,
  };
  const rows = await listModelImagePriceTiers(db, model.id);
  return {
    model_id: model.id,
    flat_usd_per_request: microsToUsd(model.per_request_micros ?? 0),
    flat_list_usd_per_request:
      model.list_per_request_micros === null ? null : microsToUsd(model.list_per_request_micros),
    data: rows.map((row) => {
      const listPerRequestMicros = Number(row.list_per_request_micros);
      return {
        quality: row.quality === '*' ? null : row.quality,
        size: row.size === '*' ? null : row.size,
        list_usd_per_request: microsToUsd(listPerRequestMicros),
        usd_per_request: microsToUsd(priceTierMicros(flat, { listPerRequestMicros })),
      };
    }),
  };
}
