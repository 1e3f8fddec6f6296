import type { Database } from '../../db/database.ts';
import { getTieredImageModel } from '../../images/get-tiered-image-model.ts';
import type { ImagePriceTiers } from '../../images/image-price-tiers.ts';
import { readImagePriceTierList } from '../../images/image-price-tier-view.ts';
import { removeImagePriceTier } from '../../images/remove-image-price-tier.ts';
import { setImagePriceTier } from '../../images/set-image-price-tier.ts';
import { parseUsdAmountMicros } from '../../billing/parse-amounts.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorImageTierHandlerDeps = { db: Database; imagePriceTiers: Pick<ImagePriceTiers, 'reload'> };

/** An image model's price tiers by quality and size: list, set one (add or change), remove one. */
export function createOperatorImageTierHandlers(
  deps: OperatorImageTierHandlerDeps,
): Pick<ApiHandlers, 'listImagePriceTiers' | 'setImagePriceTier' | 'removeImagePriceTier'> {
  return {
    listImagePriceTiers: async ({ params }) =>
      readImagePriceTierList(deps.db, await getTieredImageModel(deps.db, params.id)),
    setImagePriceTier: async ({ params, body }) =>
      setImagePriceTier(deps, {
        modelId: params.id,
        quality: body.quality,
        size: body.size,
        listPerRequestMicros: parseUsdAmountMicros(body.list_usd_per_request, 'list_usd_per_request'),
      }),
    removeImagePriceTier: async ({ params, query }) =>
      removeImagePriceTier(deps, { modelId: params.id, quality: query.quality ?? null, size: query.size ?? null }),
  };
}
