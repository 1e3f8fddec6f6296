import { reasoningForEffort, type ReasoningRequest } from '../shared/conversation.ts';

/** o-series and GPT-5 models reason; the `-chat` variants do not. */
export function isOpenAiReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model) && !model.includes('chat');
}

/**
 * Reasoning models reason even when the request says nothing: GPT-5.1 and later default to effort `none`, earlier
 * ones to `medium`.
 */
export function openAiReasoningFor(model: string, effort: string | null | undefined): ReasoningRequest | undefined {
  if (!isOpenAiReasoningModel(model)) return undefined;
  const defaultEffort = /^gpt-5\.\d/.test(model) ? 'none' : 'medium';
  return reasoningForEffort(effort ?? defaultEffort);
}

/** The dated snapshot OpenAI reports for an alias (e.g. `gpt-4o` → `gpt-4o-2025-08-07`); the gateway must hide it. */
export function snapshotOpenAiModel(model: string): string {
  return /-\d{4}-\d{2}-\d{2}$/.test(model) ? model : `${model}-2025-08-07`;
}
