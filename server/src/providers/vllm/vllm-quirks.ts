import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';
import { readIntegerCodeError, readUnwrappedError } from '../openai-compatible/read-error-bodies.ts';

/**
 * vLLM: reasoning text in `reasoning_content` (older) or `reasoning` (newer); errors either unwrapped
 * (`{"object":"error","message","type","param","code":<int>}`, older) or wrapped with an integer `code`.
 * @see https://docs.vllm.ai/en/latest/features/reasoning_outputs.html
 */
export const vllmQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'vLLM',
  reasoningFields: ['reasoning_content', 'reasoning'],
  readErrorBody: (body) => readUnwrappedError(body) ?? readIntegerCodeError(body),
};
