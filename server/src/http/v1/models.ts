import type { FastifyInstance } from 'fastify';
import type { CatalogModel, PriceList } from '../../catalog/price-list.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import { ModelNotFoundError } from '../../errors/model-not-found-error.ts';
import { toUnixSeconds } from '../../lib/clock.ts';
import { formatUsd, microsToUsd } from '../../lib/money.ts';
import type { ModelObject } from '../../openai-api/model-object.ts';
import type { AuthenticateDeps } from '../../pipeline/authenticate.ts';
import { authenticate } from '../../pipeline/authenticate.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';

export type ModelsRouteDeps = AuthenticateDeps & { priceList: PriceList; routeTable: RouteTable };

/** `GET /v1/models` and `GET /v1/models/{id}`: the models this key can reach, in the OpenAI list shape. */
export function registerModelRoutes(app: FastifyInstance, deps: ModelsRouteDeps): void {
  const visibleModels = (allowed: ReadonlySet<string> | null) =>
    deps.priceList
      .list()
      .filter((model) => deps.routeTable.routesFor(model.id).length > 0 && (!allowed || allowed.has(model.id)));

  app.get('/v1/models', async (request) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    return {
      object: 'list',
      data: visibleModels(caller.key.allowedModels).map((model) => toModelObject(model, deps.routeTable)),
    };
  });

  app.get<{ Params: { '*': string } }>('/v1/models/*', async (request) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    const id = request.params['*'];
    const model = visibleModels(caller.key.allowedModels).find((candidate) => candidate.id === id);
    if (!model) {
      throw new ModelNotFoundError(`The model \`${id}\` does not exist or you do not have access to it.`, {
        param: 'model',
      });
    }
    return toModelObject(model, deps.routeTable);
  });
}

function toModelObject(model: CatalogModel, routeTable: RouteTable): ModelObject {
  const isSimulated = routeTable.isSimulated(model.id);
  const perToken = (ratePerMillionMicros: number) => String(ratePerMillionMicros / 1e12);
  return {
    id: model.id,
    object: 'model',
    created: toUnixSeconds(model.createdAtMs),
    owned_by: isSimulated ? 'sandbox' : model.family.toLowerCase(),
    name: model.displayName,
    vendor_family: model.family,
    kind: model.kind,
    context_length: model.contextLength,
    max_output_tokens: model.maxOutputTokens,
    is_simulated: isSimulated,
    pricing: {
      input_usd_per_million: microsToUsd(model.inputRateMicros),
      output_usd_per_million: microsToUsd(model.outputRateMicros),
      cached_input_usd_per_million:
        model.cachedInputRateMicros === null ? null : microsToUsd(model.cachedInputRateMicros),
      usd_per_request: model.perRequestMicros === null ? null : microsToUsd(model.perRequestMicros),
      prompt: perToken(model.inputRateMicros),
      completion: perToken(model.outputRateMicros),
      request: model.perRequestMicros === null ? '0' : formatUsd(model.perRequestMicros),
    },
  };
}
