import type { Usage } from '../../openai-api/chat-completion.ts';
import type { GeminiUsage } from './gemini-api.ts';

/**
 * Gemini `usageMetadata` → Usage. The prompt includes `toolUsePromptTokenCount` (billed as input; Google's total
 * counts it) and the completion includes `thoughtsTokenCount` (`candidatesTokenCount` excludes thoughts), so the
 * total equals Gemini's `totalTokenCount`.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function convertGeminiUsage(usage: GeminiUsage): Usage {
  const promptTokens = (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0);
  const reasoningTokens = usage.thoughtsTokenCount ?? 0;
  const completionTokens = (usage.candidatesTokenCount ?? 0) + reasoningTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedContentTokenCount ?? 0 },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}
