import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';
import { readIntegerCodeError } from '../openai-compatible/read-error-bodies.ts';

/**
 * llama.cpp server: `reasoning_content` with a reasoning format; an extra `timings` object (ignored); errors
 * `{"error":{"code":<HTTP status>,"message","type"}}`, whose integer code also gives a mid-stream error its status.
 * @see https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md
 */
export const llamaCppQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'llama.cpp',
  readErrorBody: readIntegerCodeError,
};
