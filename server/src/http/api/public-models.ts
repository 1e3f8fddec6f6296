import type { PublicModel, PublicModelList } from '../../../../contract/models.ts';
import { comparePriceWithList } from '../../catalog/price-comparison.ts';
import type { CatalogModel, PriceList } from '../../catalog/price-list.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import type { ImagePriceTiers } from '../../images/image-price-tiers.ts';
import { describeImagePrices, type ImagePriceSheet } from '../../images/describe-image-prices.ts';
import { findRoutedImageProfile } from '../../images/image-profiles.ts';
import { microsToUsd } from '../../lib/money.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type PublicModelsDeps = {
  priceList: PriceList;
  imagePriceTiers: Pick<ImagePriceTiers, 'tiersFor'>;
  routeTable: RouteTable;
  isSandbox: boolean;
  publicBaseUrl: string;
  directBaseUrl: string;
  hasConfiguredBaseUrl: boolean;
};

/** `GET /api/models`: the public price list the models page shows; the same rows billing reads. */
export function createPublicModelHandlers(deps: PublicModelsDeps): Pick<ApiHandlers, 'listPublicModels'> {
  return { listPublicModels: async ({ request }) => listPublicModels(deps, `${request.protocol}://${request.host}`) };
}

function listPublicModels(deps: PublicModelsDeps, requestBaseUrl: string): PublicModelList {
  return {
    data: deps.priceList
      .list()
      .filter((model) => deps.routeTable.routesFor(model.id).length > 0)
      .map((model) => {
        const sheet = describeModelImagePrices(model, deps);
        return {
          ...toPublicModel(withDefaultImagePrice(model, sheet), deps.routeTable.isSimulated(model.id)),
          flat_usd_per_request:
            model.kind === 'image' && model.perRequestMicros !== null ? microsToUsd(model.perRequestMicros) : null,
          image_price_tiers: (sheet?.tiers ?? []).map((tier) => ({
            quality: tier.quality,
            size: tier.size,
            usd_per_request: microsToUsd(tier.priceMicros),
            list_usd_per_request: microsToUsd(tier.listPriceMicros ?? 0),
          })),
        };
      }),
    sandbox: deps.isSandbox,
    public_base_url: `${deps.hasConfiguredBaseUrl ? deps.publicBaseUrl : requestBaseUrl}/v1`,
    direct_base_url: `${deps.hasConfiguredBaseUrl ? deps.directBaseUrl : requestBaseUrl}/v1`,
  };
}

function describeModelImagePrices(model: CatalogModel, deps: PublicModelsDeps): ImagePriceSheet | undefined {
  if (model.kind !== 'image') return undefined;
  return describeImagePrices(model, {
    tiers: deps.imagePriceTiers.tiersFor(model.id),
    profile: findRoutedImageProfile(model.id, deps.routeTable.routesFor(model.id)),
  });
}

/**
 * An image model's shown per-request price (and the discount and savings computed from it) is that of one image of
 * a default request, which may be a dearer tier than the flat reference price the tiers scale from.
 */
function withDefaultImagePrice(model: CatalogModel, sheet: ImagePriceSheet | undefined): CatalogModel {
  if (!sheet) return model;
  return {
    ...model,
    perRequestMicros: sheet.defaultImage.priceMicros,
    listPerRequestMicros: sheet.defaultImage.listPriceMicros,
  };
}

function toPublicModel(
  model: CatalogModel,
  isSimulated: boolean,
): Omit<PublicModel, 'image_price_tiers' | 'flat_usd_per_request'> {
  const comparison = comparePriceWithList(model);
  const usdOrNull = (micros: number | null) => (micros === null ? null : microsToUsd(micros));
  return {
    id: model.id,
    display_name: model.displayName,
    family: model.family,
    kind: model.kind,
    context_length: model.contextLength,
    max_output_tokens: model.maxOutputTokens,
    input_usd_per_million: microsToUsd(model.inputRateMicros),
    output_usd_per_million: microsToUsd(model.outputRateMicros),
    cached_input_usd_per_million: usdOrNull(model.cachedInputRateMicros),
    usd_per_request: usdOrNull(model.perRequestMicros),
    list_input_usd_per_million: microsToUsd(model.listInputRateMicros),
    list_output_usd_per_million: microsToUsd(model.listOutputRateMicros),
    list_usd_per_request: usdOrNull(model.listPerRequestMicros),
    discount_percent: comparison.discountPercent,
    savings_usd_at_10_to_1: microsToUsd(comparison.savingsMicros),
    price_effective_at: new Date(model.priceEffectiveAtMs).toISOString(),
    is_simulated: isSimulated,
    supports_tools: model.supportsTools,
    supports_vision: model.supportsVision,
  };
}
