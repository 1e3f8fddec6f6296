import type { CatalogModel } from '../catalog/price-list.ts';
import { costOfTokensMicros } from '../lib/money.ts';

/** Per-message framing tokens and the most one image can cost in tokens at any vendor. */
const framingTokensPerMessage = 8;
const maxTokensPerImage = 6_500;

/**
 * An upper bound of the input tokens of a request: every token of every tokenizer we route to is at least one
 * UTF-8 byte, so the byte length of the text (plus framing and images) cannot be exceeded. The hold is a worst
 * case on purpose; the capture uses the vendor's actual count.
 */
export function estimateInputTokensUpperBound(input: { textBytes: number; messageCount: number; imageCount: number }) {
  return input.textBytes + input.messageCount * framingTokensPerMessage + input.imageCount * maxTokensPerImage;
}

export type HoldPlan = {
  /** The hold for the input plus the requested (or the model's maximum) output. */
  desiredMicros: number;
  /** The least hold that still lets the call produce one output token. */
  minimumMicros: number;
  inputCostMicros: number;
};

export function planHold(model: CatalogModel, input: { inputTokens: number; maxOutputTokens: number }): HoldPlan {
  const inputCostMicros = costOfTokensMicros([
    { tokens: input.inputTokens, ratePerMillionMicros: model.inputRateMicros },
  ]);
  const outputCost = (tokens: number) => costOfTokensMicros([{ tokens, ratePerMillionMicros: model.outputRateMicros }]);
  return {
    desiredMicros: inputCostMicros + outputCost(input.maxOutputTokens),
    minimumMicros: inputCostMicros + outputCost(1),
    inputCostMicros,
  };
}

/** How many output tokens a hold pays for after the input: the output limit to send upstream. */
export function affordableOutputTokens(model: CatalogModel, input: { heldMicros: number; inputCostMicros: number }) {
  if (model.outputRateMicros === 0) return Number.MAX_SAFE_INTEGER;
  return Math.floor(((input.heldMicros - input.inputCostMicros) * 1_000_000) / model.outputRateMicros);
}
