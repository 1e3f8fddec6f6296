import type { PriceChangeList } from '../../../contract/operator.ts';
import type { Database } from '../db/database.ts';
import { findModel } from '../db/models.ts';
import { listPriceChanges } from '../db/price-changes.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { toPriceChangeView } from './to-price-change-view.ts';

const historyLength = 100;

/** A model's recorded price changes, newest first. */
export async function listPriceHistory(deps: { db: Database }, modelId: string): Promise<PriceChangeList> {
  if (!(await findModel(deps.db, modelId))) {
    throw new NotFoundError(`There is no model \`${modelId}\` in the catalogue.`, { param: 'model' });
  }
  const changes = await listPriceChanges(deps.db, { modelId, limit: historyLength });
  return { data: changes.map(toPriceChangeView) };
}
