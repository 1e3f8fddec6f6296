import { findModel } from '../db/models.ts';
import type { Database } from '../db/database.ts';
import type { ModelRow } from '../db/schema.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';

/**
 * The image model whose price tiers are to change. A tier scales the flat price by its list price over the flat list
 * price, so a model needs both before it can have tiers.
 */
export async function getTieredImageModel(db: Database, modelId: string): Promise<ModelRow> {
  const model = await findModel(db, modelId);
  if (!model) throw new NotFoundError(`There is no model \`${modelId}\` in the catalogue.`, { param: 'model' });
  if (model.kind !== 'image') {
    throw new InvalidRequestError(`\`${modelId}\` is a text model; only image models have price tiers.`, {
      param: 'model',
    });
  }
  if (model.per_request_micros === null || !model.list_per_request_micros) {
    throw new InvalidRequestError(
      `\`${modelId}\` has no per-image price and list price, which its tiers would scale from.`,
      { param: 'model' },
    );
  }
  return model;
}
