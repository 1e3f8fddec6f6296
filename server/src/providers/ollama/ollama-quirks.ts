import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';

/**
 * Ollama's `/v1` endpoint: OpenAI-shaped errors and usage (`include_usage` supported); thinking models put their
 * reasoning text in `reasoning`.
 * @see https://github.com/ollama/ollama/blob/main/docs/openai.md
 */
export const ollamaQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'Ollama',
  reasoningFields: ['reasoning', 'reasoning_content'],
};
