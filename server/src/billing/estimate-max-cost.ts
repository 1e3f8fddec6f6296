import type { CatalogModel } from '../catalog/price-list.ts';
import { costOfTokensMicros, maxTokensWithinMicros, type TokenCharge } from '../lib/money.ts';
import { estimateDeliveredUsage } from './estimate-delivered-usage.ts';

/** Per-message framing tokens and the most one image can cost in tokens at any vendor. */
const framingTokensPerMessage = 8;
const maxTokensPerImage = 6_500;

/** What the hold needs of a request's input: its size in UTF-8 bytes, messages and images. */
export type InputSize = { textBytes: number; messageCount: number; imageCount: number };

/**
 * Two estimates of a request's input tokens. `upperBoundTokens` cannot be exceeded: every token of every tokenizer
 * we route to is at least one UTF-8 byte (random symbols, rare scripts and emoji really do cost one token per byte),
 * plus framing and the dearest image. `likelyTokens` is the usual count, about 4 bytes per token (English text and
 * code; docs/billing.md), and decides whether a call is affordable at all.
 */
export type InputEstimate = { upperBoundTokens: number; likelyTokens: number };

export function estimateInputTokens(size: InputSize): InputEstimate {
  return {
    upperBoundTokens:
      size.textBytes + size.messageCount * framingTokensPerMessage + size.imageCount * maxTokensPerImage,
    likelyTokens: estimateDeliveredUsage({ ...size, deliveredTextBytes: 0 }).inputTokens,
  };
}

export type HoldPlan = {
  /** The hold for the worst-case input plus every choice's requested (or the model's maximum) output. */
  desiredMicros: number;
  /** The least hold that lets the call go ahead: the likely input plus one output token per choice. */
  minimumMicros: number;
  /** The likely cost of the input alone, for the message of a refusal. */
  likelyInputMicros: number;
};

export type OutputPlan = { input: InputEstimate; maxOutputTokensPerChoice: number; choiceCount: number };

/**
 * The input at its dearest: every token could be a prompt-cache write, which vendors that charge for writes bill
 * above the input rate (Anthropic 1.25×).
 */
function worstCaseInput(model: CatalogModel, tokens: number): TokenCharge {
  const share = Math.max(model.cacheWriteRateBasisPoints ?? 10_000, 10_000);
  return { tokens, ratePerMillionMicros: model.inputRateMicros, rateShareBasisPoints: share };
}

/** What to hold for a call, at the model's (account's) rates, each amount rounded once by the one rule. */
export function planHold(model: CatalogModel, plan: OutputPlan): HoldPlan {
  const cost = (input: TokenCharge, outputTokens: number) =>
    costOfTokensMicros([input, { tokens: outputTokens, ratePerMillionMicros: model.outputRateMicros }], {
      discountBasisPoints: model.discountBasisPoints,
    });
  const likelyInput = { tokens: plan.input.likelyTokens, ratePerMillionMicros: model.inputRateMicros };
  return {
    desiredMicros: cost(
      worstCaseInput(model, plan.input.upperBoundTokens),
      plan.maxOutputTokensPerChoice * plan.choiceCount,
    ),
    minimumMicros: cost(likelyInput, plan.choiceCount),
    likelyInputMicros: cost(likelyInput, 0),
  };
}

/**
 * The output limit per choice a hold pays for: what is left after the worst-case input, shared by the choices. A
 * hold too small for the worst-case input (a balance that covers the likely input only) pays for the output after
 * the likely input instead, so the call still goes ahead (docs/billing.md, "Holds").
 */
export function affordableOutputTokensPerChoice(
  model: CatalogModel,
  input: { heldMicros: number; input: InputEstimate; choiceCount: number },
): number {
  const outputTokensAfter = (inputCharge: TokenCharge) =>
    maxTokensWithinMicros({
      budgetMicros: input.heldMicros,
      fixedCharges: [inputCharge],
      ratePerMillionMicros: model.outputRateMicros,
      discountBasisPoints: model.discountBasisPoints,
    });
  const afterUpperBound = outputTokensAfter(worstCaseInput(model, input.input.upperBoundTokens));
  const outputTokens =
    afterUpperBound >= input.choiceCount
      ? afterUpperBound
      : outputTokensAfter({ tokens: input.input.likelyTokens, ratePerMillionMicros: model.inputRateMicros });
  return Math.floor(outputTokens / input.choiceCount);
}
