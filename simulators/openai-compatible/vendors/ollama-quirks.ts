import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';
import { formatBasicChatUsage } from '../format-chat-usage.ts';
import { localReasoningFor } from './local-reasoning.ts';

/** Ollama's `/v1` (docs/reference/openai-compatible-vendors.md): no key, OpenAI-shaped errors, `reasoning` for thinking models, short ids. */
export const ollamaQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'ollama',
  isKeyRequired: false,
  modelIds: ['llama3.2', 'qwen3:8b', 'gpt-oss:20b'],
  createCompletionId: (ids) => `chatcmpl-${100 + ids.nextInt(900)}`,
  createToolCallId: (ids) => `call_${ids.nextString('0123456789abcdefghijklmnopqrstuvwxyz', 8)}`,
  reasoningFor: localReasoningFor,
  reasoningField: 'reasoning',
  formatUsage: formatBasicChatUsage,
  decorateChunk: (chunk) => {
    chunk['system_fingerprint'] = 'fp_ollama';
  },
  decorateCompletion: (completion) => {
    completion['system_fingerprint'] = 'fp_ollama';
  },
};
