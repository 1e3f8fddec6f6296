import type { FastifyInstance } from 'fastify';
import { imagePriceTierQuerySchema, imagePriceTierRequestSchema } from '../../../../contract/operator.ts';
import type { Database } from '../../db/database.ts';
import { getTieredImageModel } from '../../images/get-tiered-image-model.ts';
import type { ImagePriceTiers } from '../../images/image-price-tiers.ts';
import { readImagePriceTierList } from '../../images/image-price-tier-view.ts';
import { removeImagePriceTier } from '../../images/remove-image-price-tier.ts';
import { setImagePriceTier } from '../../images/set-image-price-tier.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { parseUsdAmountMicros } from '../../billing/parse-amounts.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { requireOperator } from './operator-guard.ts';

export type OperatorImageTierRouteDeps = {
  db: Database;
  imagePriceTiers: Pick<ImagePriceTiers, 'reload'>;
  sessions: SessionGuard;
};

type ModelParams = { Params: { id: string } };

/** An image model's price tiers by quality and size: list, set one (add or change), remove one. */
export function registerOperatorImageTierRoutes(app: FastifyInstance, deps: OperatorImageTierRouteDeps): void {
  app.get<ModelParams>('/api/operator/models/:id/image-tiers', async (request) => {
    requireOperator(deps.sessions, request);
    return readImagePriceTierList(deps.db, await getTieredImageModel(deps.db, request.params.id));
  });

  app.post<ModelParams>('/api/operator/models/:id/image-tiers', async (request) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(imagePriceTierRequestSchema, request.body);
    return setImagePriceTier(deps, {
      modelId: request.params.id,
      quality: body.quality,
      size: body.size,
      listPerRequestMicros: parseUsdAmountMicros(body.list_usd_per_request, 'list_usd_per_request'),
    });
  });

  app.delete<ModelParams>('/api/operator/models/:id/image-tiers', async (request) => {
    requireOperator(deps.sessions, request);
    const query = parseWireRequest(imagePriceTierQuerySchema, request.query);
    return removeImagePriceTier(deps, {
      modelId: request.params.id,
      quality: query.quality ?? null,
      size: query.size ?? null,
    });
  });
}
