import type { ImagePriceTierList } from '../../../contract/operator.ts';
import { deleteImagePriceTier } from '../db/image-price-tiers.ts';
import { findModel } from '../db/models.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { readImagePriceTierList } from './image-price-tier-view.ts';
import {
  publishImagePriceTierChange,
  type ImagePriceTierChangeDeps,
  type ImagePriceTierKey,
} from './set-image-price-tier.ts';

/** Removes one price tier: images it priced fall back to the next matching tier, or the flat price. */
export async function removeImagePriceTier(
  deps: ImagePriceTierChangeDeps,
  key: ImagePriceTierKey,
): Promise<ImagePriceTierList> {
  const model = await findModel(deps.db, key.modelId);
  if (!model) throw new NotFoundError(`There is no model \`${key.modelId}\` in the catalogue.`, { param: 'model' });
  const isRemoved = await deleteImagePriceTier(deps.db, {
    modelId: model.id,
    quality: key.quality ?? '*',
    size: key.size ?? '*',
  });
  if (!isRemoved) {
    throw new NotFoundError(
      `\`${model.id}\` has no price tier for quality ${key.quality ?? 'any'} and size ${key.size ?? 'any'}.`,
    );
  }
  await publishImagePriceTierChange(deps);
  return readImagePriceTierList(deps.db, model);
}
