import { convertOpenAiUsage } from './convert-usage.ts';
import type { DialectQuirks } from './dialect-quirks.ts';

/** OpenAI itself: the reference dialect, with no quirks. OpenAI-dialect vendors start from these values. */
export const openAiQuirks: DialectQuirks = {
  vendorName: 'OpenAI',
  maxTokensField: 'max_completion_tokens',
  acceptsStreamOptions: true,
  forwardsCacheControl: false,
  unsupportedParameters: [],
  rewriteRequestBody: (body) => body,
  reasoningFields: [],
  convertUsage: convertOpenAiUsage,
  findExtraUsage: () => undefined,
  mapExtraFinishReason: () => undefined,
  readErrorBody: () => undefined,
};
