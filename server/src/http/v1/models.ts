import type { FastifyInstance } from 'fastify';
import type { CatalogModel, PriceList } from '../../catalog/price-list.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import { modelNotFoundFor, modelRetiredError } from '../../errors/model-not-found-error.ts';
import { describeImagePrices } from '../../images/describe-image-prices.ts';
import type { ImagePriceTiers } from '../../images/image-price-tiers.ts';
import { findRoutedImageProfile } from '../../images/image-profiles.ts';
import { toUnixSeconds } from '../../lib/clock.ts';
import { microsToUsd } from '../../lib/money.ts';
import { formatUsdDecimal, formatUsdPerToken } from '../../openai-api/format-usd-decimal.ts';
import type { ModelObject, ModelPricing } from '../../openai-api/model-object.ts';
import { authenticate, type AuthenticateDeps, type Caller } from '../../pipeline/authenticate.ts';
import { isAllowedFor } from '../../routing/choose-route-order.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';

export type ModelsRouteDeps = AuthenticateDeps & {
  priceList: PriceList;
  routeTable: RouteTable;
  imagePriceTiers: Pick<ImagePriceTiers, 'tiersFor'>;
};

/**
 * `GET /v1/models` and `GET /v1/models/{id}`: the models this key can reach, in the OpenAI list shape. A model is
 * listed when the key may use it and it has a route the account may use: a model whose only routes are reserved for
 * other accounts (dedicated channels, docs/routing.md) is not shown to this one.
 */
export function registerModelRoutes(app: FastifyInstance, deps: ModelsRouteDeps): void {
  const visibleModels = (caller: Caller) =>
    deps.priceList.list().filter((model) => {
      const allowed = caller.key.allowedModels;
      const routes = deps.routeTable.routesFor(model.id);
      return routes.some((route) => isAllowedFor(route, caller.userId)) && (!allowed || allowed.has(model.id));
    });

  app.get('/v1/models', async (request) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    return {
      object: 'list',
      data: visibleModels(caller).map((model) => toModelObject(model, deps)),
    };
  });

  app.get<{ Params: { '*': string } }>('/v1/models/*', async (request) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    const id = request.params['*'];
    const model = visibleModels(caller).find((candidate) => candidate.id === id);
    const retired = model ? undefined : deps.priceList.findRetired(id);
    if (retired) throw modelRetiredError(retired.id, retired.successorId);
    if (!model) throw modelNotFoundFor(id);
    return toModelObject(model, deps);
  });
}

function toModelObject(model: CatalogModel, deps: ModelsRouteDeps): ModelObject {
  const isSimulated = deps.routeTable.isSimulated(model.id);
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
    pricing: toPricing(model, deps),
  };
}

/** Token rates for every model; for image models the price of a default request and of each tier. */
function toPricing(model: CatalogModel, deps: ModelsRouteDeps): ModelPricing {
  const pricing: ModelPricing = {
    input_usd_per_million: microsToUsd(model.inputRateMicros),
    output_usd_per_million: microsToUsd(model.outputRateMicros),
    cached_input_usd_per_million:
      model.cachedInputRateMicros === null ? null : microsToUsd(model.cachedInputRateMicros),
    usd_per_request: null,
    prompt: formatUsdPerToken(model.inputRateMicros),
    completion: formatUsdPerToken(model.outputRateMicros),
    request: '0',
  };
  if (model.kind !== 'image') return pricing;
  const sheet = describeImagePrices(model, {
    tiers: deps.imagePriceTiers.tiersFor(model.id),
    profile: findRoutedImageProfile(model.id, deps.routeTable.routesFor(model.id)),
  });
  if (!sheet) return { ...pricing, image_tiers: [] };
  return {
    ...pricing,
    usd_per_request: microsToUsd(sheet.defaultImage.priceMicros),
    request: formatUsdDecimal(sheet.defaultImage.priceMicros),
    image_tiers: sheet.tiers.map((tier) => ({
      quality: tier.quality,
      size: tier.size,
      price: formatUsdDecimal(tier.priceMicros),
    })),
  };
}
