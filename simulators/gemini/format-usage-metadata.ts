import type { Conversation } from '../shared/conversation.ts';
import { tokensPerImage } from '../shared/count-input-tokens.ts';
import type { AnswerPlan } from '../shared/plan-answer.ts';

/**
 * `usageMetadata` (docs/reference/gemini.md §Response): candidates exclude thoughts; search results count as tool-use prompt tokens;
 * proto3 JSON omits zero counts. `candidatesTokens` is what has been emitted so far (running totals in streams).
 */
export function formatUsageMetadata(input: {
  plan: AnswerPlan;
  conversation: Conversation;
  candidatesTokens: number;
}): Record<string, unknown> {
  const { plan, conversation, candidatesTokens } = input;
  const toolUsePromptTokens = plan.search?.resultTokens ?? 0;
  const promptTokens = plan.usage.inputTokens - toolUsePromptTokens;
  const imageTokens = conversation.units.reduce((sum, unit) => sum + unit.imageCount, 0) * tokensPerImage;
  const thoughtsTokens = plan.usage.reasoningTokens;
  const promptTokensDetails = [{ modality: 'TEXT', tokenCount: promptTokens - imageTokens }];
  if (imageTokens > 0) promptTokensDetails.push({ modality: 'IMAGE', tokenCount: imageTokens });
  const usage: Record<string, unknown> = {
    promptTokenCount: promptTokens,
    candidatesTokenCount: candidatesTokens,
    totalTokenCount: promptTokens + candidatesTokens + toolUsePromptTokens + thoughtsTokens,
    promptTokensDetails,
  };
  if (toolUsePromptTokens > 0) usage['toolUsePromptTokenCount'] = toolUsePromptTokens;
  if (thoughtsTokens > 0) usage['thoughtsTokenCount'] = thoughtsTokens;
  if (plan.usage.cacheReadTokens > 0) {
    usage['cachedContentTokenCount'] = plan.usage.cacheReadTokens;
    usage['cacheTokensDetails'] = [{ modality: 'TEXT', tokenCount: plan.usage.cacheReadTokens }];
  }
  return usage;
}
