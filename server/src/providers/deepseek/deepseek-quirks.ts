import type { Usage } from '../../openai-api/chat-completion.ts';
import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import type { OpenAiUsage } from '../openai/openai-api.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';
import { deepSeekUsageSchema } from '../openai-compatible/openai-compatible-api.ts';

/**
 * DeepSeek: `reasoning_content` on reasoner models; cache hits counted in `prompt_cache_hit_tokens` rather than
 * `prompt_tokens_details`; `insufficient_system_resource` when the service cut the answer short (handled as a
 * failure, since the answer is incomplete).
 * @see https://api-docs.deepseek.com/api/create-chat-completion
 * @see https://api-docs.deepseek.com/guides/kv_cache
 */
export const deepSeekQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'DeepSeek',
  convertUsage: convertDeepSeekUsage,
  mapExtraFinishReason: (value) => (value === 'insufficient_system_resource' ? 'error' : undefined),
};

function convertDeepSeekUsage(usage: OpenAiUsage): Usage {
  const converted = compatibleBaseQuirks.convertUsage(usage);
  const cacheHitTokens = deepSeekUsageSchema.safeParse(usage).data?.prompt_cache_hit_tokens;
  const hasStandardCacheCount = typeof usage.prompt_tokens_details?.cached_tokens === 'number';
  if (hasStandardCacheCount || typeof cacheHitTokens !== 'number') return converted;
  return { ...converted, prompt_tokens_details: { ...converted.prompt_tokens_details, cached_tokens: cacheHitTokens } };
}
