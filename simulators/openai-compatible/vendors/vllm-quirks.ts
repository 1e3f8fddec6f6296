import { lowerHex } from '../../shared/random.ts';
import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';
import { formatBasicChatUsage } from '../format-chat-usage.ts';
import { localReasoningFor } from './local-reasoning.ts';

const vllmErrorTypes: Readonly<Record<number, string>> = {
  400: 'BadRequestError',
  404: 'NotFoundError',
  429: 'RateLimitError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
};

/**
 * vLLM (docs/reference/openai-compatible-vendors.md): no key unless the server was started with one, `reasoning_content`, and error bodies
 * `{"object": "error", message, type, param, code: <int>}`; its auth middleware answers a bare `{"error": "Unauthorized"}`.
 */
export const vllmQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'vllm',
  isKeyRequired: false,
  modelIds: ['meta-llama/Llama-3.1-8B-Instruct', 'Qwen/Qwen3-8B'],
  createCompletionId: (ids) => `chatcmpl-${ids.nextString(lowerHex, 32)}`,
  createToolCallId: (ids) => `chatcmpl-tool-${ids.nextString(lowerHex, 32)}`,
  reasoningFor: localReasoningFor,
  reasoningField: 'reasoning_content',
  formatUsage: formatBasicChatUsage,
  renderErrorBody: (error) =>
    error.status === 401
      ? { error: 'Unauthorized' }
      : {
          object: 'error',
          message: error.message,
          type:
            error.vendorType ??
            vllmErrorTypes[error.status] ??
            (error.status >= 500 ? 'InternalServerError' : 'BadRequestError'),
          param: error.param,
          code: error.status,
        },
};
