import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';
import { readStringError } from '../openai-compatible/read-error-bodies.ts';

/**
 * xAI: `reasoning_content` on reasoning models; streamed usage arrives on the second-to-last chunk, followed by a
 * chunk with empty `choices` (the dialect stream converter collects usage from any chunk, so nothing is lost or
 * sent twice); errors as `{"code": "<gRPC status sentence>", "error": "<message>"}`.
 * @see https://docs.x.ai/docs/api-reference#chat-completions
 */
export const xaiQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'xAI',
  readErrorBody: readStringError,
};
