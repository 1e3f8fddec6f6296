import type { CatalogModel } from '../catalog/price-list.ts';
import { checkImageRequest } from './check-image-request.ts';
import type { ImagePriceTier } from './image-price-tiers.ts';
import type { ImageProfile } from './image-profiles.ts';
import { chooseImagePriceTier, findJobPriceKey, priceTierMicros, type ImagePriceKey } from './price-images.ts';

/** One image's price at the model's rates and the vendor's list price it derives from, in micro-USD. */
export type ImagePrice = { priceMicros: number; listPriceMicros: number | null };

/** The prices the model list shows for an image model. */
export type ImagePriceSheet = {
  /**
   * One image of a request that sets neither quality nor size: what such a request holds per image, and the most it
   * costs. Where the model picks the quality (`auto`), that is its dearest quality at the default size.
   */
  defaultImage: ImagePrice;
  /** Every tier (null: any quality or size); empty when the model has one flat price. */
  tiers: Array<ImagePrice & { quality: string | null; size: string | null }>;
};

/**
 * The price sheet of an image model, from the same functions billing uses, so the price shown for a default
 * request is the price a default request is held and charged at (never the flat reference price tiers scale from).
 * Undefined when the model has no per-image price (it cannot be billed, so it draws nothing).
 */
export function describeImagePrices(
  model: CatalogModel,
  input: { tiers: readonly ImagePriceTier[]; profile: ImageProfile | undefined },
): ImagePriceSheet | undefined {
  if (model.perRequestMicros === null) return undefined;
  const key = findDefaultPriceKey(model, input.profile);
  const defaultTier = chooseImagePriceTier(model, { tiers: input.tiers, key });
  return {
    defaultImage: defaultTier
      ? { priceMicros: priceTierMicros(model, defaultTier), listPriceMicros: defaultTier.listPerRequestMicros }
      : { priceMicros: model.perRequestMicros, listPriceMicros: model.listPerRequestMicros },
    tiers: input.tiers.map((tier) => ({
      quality: tier.quality,
      size: tier.size,
      priceMicros: priceTierMicros(model, tier),
      listPriceMicros: tier.listPerRequestMicros,
    })),
  };
}

/** The price key of a request naming only the model and a prompt, with the defaults the request check fills in. */
function findDefaultPriceKey(model: CatalogModel, profile: ImageProfile | undefined): ImagePriceKey {
  if (!profile) return { quality: undefined, size: undefined };
  return findJobPriceKey(checkImageRequest({ model: model.id, prompt: 'a default request' }, profile));
}
