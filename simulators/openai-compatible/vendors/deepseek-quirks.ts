import { effortReasoningTokens } from '../../shared/conversation.ts';
import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';
import { formatChatUsage } from '../format-chat-usage.ts';

/**
 * DeepSeek (docs/reference/openai-compatible-vendors.md): `reasoning_content` for reasoner models, cache hits and misses as extra usage fields,
 * `: keep-alive` comments while a request is queued, and the API served with and without `/v1`.
 */
export const deepseekQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'deepseek',
  knownModels: { priceDataProviderId: 'deepseek', pattern: /^deepseek-/ },
  apiRoots: ['/v1', ''],
  modelIds: ['deepseek-chat', 'deepseek-reasoner'],
  // DeepSeek's disk cache works in 64-token units.
  cachePolicy: { kind: 'automatic', minimumTokens: 64, granularityTokens: 64 },
  reasoningFor: (request) =>
    request.model.includes('reasoner') ? { targetTokens: effortReasoningTokens.high } : undefined,
  reasoningField: 'reasoning_content',
  keepAliveComments: ['keep-alive'],
  formatUsage: (plan) => ({
    ...formatChatUsage(plan),
    prompt_cache_hit_tokens: plan.usage.cacheReadTokens,
    prompt_cache_miss_tokens: plan.usage.inputTokens - plan.usage.cacheReadTokens,
  }),
};
