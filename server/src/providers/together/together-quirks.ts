import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';

/**
 * Together: streamed usage rides on the last content/finish chunk instead of a separate `choices: []` chunk, and is
 * sent even without `include_usage`; the dialect stream converter moves it to the final usage chunk. Models that
 * stop on their end-of-sequence token report `finish_reason: "eos"`.
 * @see https://docs.together.ai/reference/chat-completions-1
 */
export const togetherQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'Together',
  mapExtraFinishReason: (value) => (value === 'eos' ? 'stop' : undefined),
};
