import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';
import { readIntegerCodeError } from '../openai-compatible/read-error-bodies.ts';

/**
 * OpenRouter: reasoning text in `reasoning`; errors with the HTTP status as an integer `code` (plus `metadata`,
 * never shown); a failure mid-stream arrives as a chunk with a top-level `error` and `finish_reason: "error"`.
 * @see https://openrouter.ai/docs/api-reference/errors
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens
 */
export const openRouterQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'OpenRouter',
  forwardsCacheControl: true,
  reasoningFields: ['reasoning', 'reasoning_content'],
  mapExtraFinishReason: (value) => (value === 'error' ? 'error' : undefined),
  readErrorBody: readIntegerCodeError,
};
