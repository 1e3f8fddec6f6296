import type { ImagePriceTierList } from '../../../contract/operator.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { upsertImagePriceTier } from '../db/image-price-tiers.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { checkImageRequest } from './check-image-request.ts';
import { getTieredImageModel } from './get-tiered-image-model.ts';
import type { ImagePriceTiers } from './image-price-tiers.ts';
import { findImageProfile } from './image-profiles.ts';
import { readImagePriceTierList } from './image-price-tier-view.ts';

/** Where tier changes go: the database, and this node's tier cache when there is one (the CLI has none). */
export type ImagePriceTierChangeDeps = { db: Database; imagePriceTiers?: Pick<ImagePriceTiers, 'reload'> };

/** A tier's quality and size; null matches any. */
export type ImagePriceTierKey = { modelId: string; quality: string | null; size: string | null };

/**
 * Adds a price tier to an image model or changes its list price. The quality and size must be ones the model draws,
 * or the tier could never match (or, for a model that picks its own quality, would raise every hold). Every node
 * reloads its tiers within a second (the `catalog` cache version); this one at once.
 */
export async function setImagePriceTier(
  deps: ImagePriceTierChangeDeps,
  input: ImagePriceTierKey & { listPerRequestMicros: number },
): Promise<ImagePriceTierList> {
  const model = await getTieredImageModel(deps.db, input.modelId);
  checkTierKey(input);
  await upsertImagePriceTier(deps.db, {
    model_id: model.id,
    quality: input.quality ?? '*',
    size: input.size ?? '*',
    list_per_request_micros: input.listPerRequestMicros,
  });
  await publishImagePriceTierChange(deps);
  return readImagePriceTierList(deps.db, model);
}

/** Tells every node that the tiers changed; reloads this node's at once. */
export async function publishImagePriceTierChange(deps: ImagePriceTierChangeDeps): Promise<void> {
  await bumpCacheVersion(deps.db, 'catalog');
  await deps.imagePriceTiers?.reload();
}

function checkTierKey(key: ImagePriceTierKey): void {
  for (const param of ['quality', 'size'] as const) {
    const value = key[param];
    if (value === 'auto' || value === '*') {
      throw new InvalidRequestError(
        `A tier prices what the model drew, so its ${param} cannot be '${value}'; use null for any ${param}.`,
        { param },
      );
    }
  }
  const profile = findImageProfile(key.modelId);
  if (!profile) {
    if (key.size !== null && !/^\d{2,5}x\d{2,5}$/.test(key.size)) {
      throw new InvalidRequestError(`The size '${key.size}' is not WIDTHxHEIGHT.`, { param: 'size' });
    }
    return;
  }
  if (key.quality !== null && !profile.qualities.includes(key.quality)) {
    const allowed = profile.qualities.map((quality) => `'${quality}'`).join(', ');
    throw new InvalidRequestError(
      allowed
        ? `The model \`${key.modelId}\` draws the qualities ${allowed}, not '${key.quality}'.`
        : `The model \`${key.modelId}\` has no quality setting; use null for the quality.`,
      { param: 'quality' },
    );
  }
  if (key.size !== null) checkImageRequest({ model: key.modelId, prompt: 'a tier', size: key.size }, profile);
}
