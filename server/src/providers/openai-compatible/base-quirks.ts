import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { openAiQuirks } from '../openai/openai-quirks.ts';

/**
 * Where OpenAI-dialect vendors start from: OpenAI's dialect, with the output limit in `max_tokens` (the field every
 * dialect server accepts; most do not know `max_completion_tokens`) and reasoning text in `reasoning_content`.
 */
export const compatibleBaseQuirks: DialectQuirks = {
  ...openAiQuirks,
  vendorName: 'OpenAI-compatible server',
  maxTokensField: 'max_tokens',
  reasoningFields: ['reasoning_content'],
};
