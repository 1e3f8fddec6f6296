import type { CatalogModel } from '../catalog/price-list.ts';
import { InternalError } from '../errors/internal-error.ts';
import type { ImageJob } from './image-job.ts';
import type { ImagePriceTier } from './image-price-tiers.ts';

/** The quality and size an image is priced at; undefined when not known (the model picks: `auto`). */
export type ImagePriceKey = { quality: string | undefined; size: string | undefined };

/**
 * The price of one image at the caller's rates. A model without tiers costs its flat per-request price. With tiers,
 * the most specific tier matching the quality and size sets the price in proportion to the flat one: flat price ×
 * tier list price / flat list price, rounded up to the micro-USD, so the operator's price and every discount carry
 * over. An unknown quality or size is priced at the dearest image it could be (used for the hold, and for the charge
 * when the vendor did not say what it drew).
 */
export function priceImageMicros(
  model: CatalogModel,
  input: { tiers: readonly ImagePriceTier[]; key: ImagePriceKey },
): number {
  const tier = chooseImagePriceTier(model, input);
  return tier ? priceTierMicros(model, tier) : flatPriceMicros(model);
}

/**
 * The tier an image of that quality and size is priced at, or undefined for the flat price: the most specific
 * matching tier when both are known, else the dearest tier the image could fall in, unless the flat price is dearer.
 */
export function chooseImagePriceTier(
  model: CatalogModel,
  input: { tiers: readonly ImagePriceTier[]; key: ImagePriceKey },
): ImagePriceTier | undefined {
  const { quality, size } = input.key;
  if (quality !== undefined && size !== undefined) {
    const matching = input.tiers.filter(
      (tier) => (tier.quality === null || tier.quality === quality) && (tier.size === null || tier.size === size),
    );
    return matching.sort((left, right) => specificity(right) - specificity(left))[0];
  }
  const possible = input.tiers.filter(
    (tier) =>
      (tier.quality === null || quality === undefined || tier.quality === quality) &&
      (tier.size === null || size === undefined || tier.size === size),
  );
  const dearest = possible.sort((left, right) => right.listPerRequestMicros - left.listPerRequestMicros)[0];
  if (!dearest) return undefined;
  return priceTierMicros(model, dearest) > flatPriceMicros(model) ? dearest : undefined;
}

/** What a job is priced at before the call: `auto` (or no quality where the vendor has no fixed default) is open. */
export function findJobPriceKey(job: ImageJob): ImagePriceKey {
  return { quality: job.quality ?? job.profile.defaultQuality, size: job.width === undefined ? undefined : job.size };
}

/** The prices a tier scales between: the model's flat price and the vendor's flat list price. */
export type FlatImagePrice = Pick<CatalogModel, 'id' | 'perRequestMicros' | 'listPerRequestMicros'>;

/** One image of a tier at the model's rates: flat price × tier list price / flat list price, rounded up. */
export function priceTierMicros(model: FlatImagePrice, tier: Pick<ImagePriceTier, 'listPerRequestMicros'>): number {
  const flatMicros = flatPriceMicros(model);
  const listFlatMicros = model.listPerRequestMicros;
  if (!listFlatMicros) return flatMicros;
  return ceilDivide(BigInt(flatMicros) * BigInt(tier.listPerRequestMicros), BigInt(listFlatMicros));
}

function flatPriceMicros(model: FlatImagePrice): number {
  if (model.perRequestMicros === null) {
    throw new InternalError(`The image model \`${model.id}\` has no per-image price in the price list.`);
  }
  return model.perRequestMicros;
}

function specificity(tier: ImagePriceTier): number {
  return (tier.quality === null ? 0 : 2) + (tier.size === null ? 0 : 1);
}

/** numerator / divisor rounded up, in exact integer arithmetic. */
function ceilDivide(numerator: bigint, divisor: bigint): number {
  const whole = numerator / divisor;
  return Number(numerator % divisor === 0n ? whole : whole + 1n);
}
