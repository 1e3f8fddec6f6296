import type { PublicModel } from '../../../../contract/models.ts';

/**
 * A model's input or output rate in USD per 1M tokens; undefined for an image model priced only per request
 * (its token rates are 0 because they do not apply, not because tokens are free).
 */
export function findTokenRateUsd(model: PublicModel, side: 'input' | 'output'): number | undefined {
  const rate = side === 'input' ? model.input_usd_per_million : model.output_usd_per_million;
  return model.kind === 'image' && rate === 0 ? undefined : rate;
}
