import type { InputUnit } from './conversation.ts';

/** Per-message overhead, like the role and separator tokens of real chat templates. */
export const tokensPerMessage = 4;
/** Every image counts the same, like OpenAI's low-detail image price. */
export const tokensPerImage = 85;

/** ceil(UTF-8 bytes / 4) of all the text, plus the per-message and per-image tokens (README.md, "Token counts"). */
export function countInputTokens(units: readonly InputUnit[]): number {
  let byteCount = 0;
  let extraTokens = 0;
  for (const unit of units) {
    byteCount += Buffer.byteLength(unit.text, 'utf8');
    extraTokens += unit.imageCount * tokensPerImage + (unit.isMessage ? tokensPerMessage : 0);
  }
  return Math.ceil(byteCount / 4) + extraTokens;
}

export function countTextTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}
