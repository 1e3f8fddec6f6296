import { createSerialReload } from '../lib/serial-reload.ts';
import type { Database } from '../db/database.ts';
import { listImagePriceTiers } from '../db/image-price-tiers.ts';

/** A per-image list price for one quality and size of an image model; null matches any. */
export type ImagePriceTier = { quality: string | null; size: string | null; listPerRequestMicros: number };

/** The price tiers of every image model, held in memory and reloaded with the catalogue. */
export type ImagePriceTiers = {
  /** The model's tiers; empty when its price is flat. */
  tiersFor: (modelId: string) => readonly ImagePriceTier[];
  reload: () => Promise<void>;
};

export async function loadImagePriceTiers(db: Database): Promise<ImagePriceTiers> {
  let byModel = new Map<string, ImagePriceTier[]>();
  const reload = createSerialReload(async () => {
    const next = new Map<string, ImagePriceTier[]>();
    for (const row of await listImagePriceTiers(db)) {
      const tier: ImagePriceTier = {
        quality: row.quality === '*' ? null : row.quality,
        size: row.size === '*' ? null : row.size,
        listPerRequestMicros: Number(row.list_per_request_micros),
      };
      next.set(row.model_id, [...(next.get(row.model_id) ?? []), tier]);
    }
    byModel = next;
  });
  await reload();
  return { tiersFor: (modelId) => byModel.get(modelId) ?? [], reload };
}
