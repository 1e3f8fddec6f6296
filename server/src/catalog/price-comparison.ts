import type { CatalogModel } from './price-list.ts';

/** Savings of our price against the vendor's list price, for a 10M input : 1M output token mix (or 100 images). */
export type PriceComparison = { discountPercent: number; savingsMicros: number; listCostMicros: number };

const inputMillions = 10;
const outputMillions = 1;
const imageRequests = 100;

export function comparePriceWithList(model: CatalogModel): PriceComparison {
  const listCostMicros =
    model.kind === 'image'
      ? (model.listPerRequestMicros ?? 0) * imageRequests
      : model.listInputRateMicros * inputMillions + model.listOutputRateMicros * outputMillions;
  const ourCostMicros =
    model.kind === 'image'
      ? (model.perRequestMicros ?? 0) * imageRequests
      : model.inputRateMicros * inputMillions + model.outputRateMicros * outputMillions;
  const savingsMicros = listCostMicros - ourCostMicros;
  const discountPercent = listCostMicros > 0 ? Math.round((savingsMicros / listCostMicros) * 10_000) / 100 : 0;
  return { discountPercent, savingsMicros, listCostMicros };
}
