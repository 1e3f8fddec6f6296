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

/**
 * The snapshot each alias of the simulated catalogue points to, as OpenAI (and Azure, for a deployment of it) names
 * it in `model`; each model has its own release date.
 * @see https://platform.openai.com/docs/models
 */
const openAiSnapshots: Readonly<Record<string, string>> = {
  'gpt-5.1': 'gpt-5.1-2025-11-13',
  'gpt-5': 'gpt-5-2025-08-07',
  'gpt-5-mini': 'gpt-5-mini-2025-08-07',
  'gpt-5-nano': 'gpt-5-nano-2025-08-07',
  'gpt-4.1': 'gpt-4.1-2025-04-14',
  'gpt-4.1-mini': 'gpt-4.1-mini-2025-04-14',
  'gpt-4o': 'gpt-4o-2024-08-06',
  'gpt-4o-mini': 'gpt-4o-mini-2024-07-18',
  o3: 'o3-2025-04-16',
  'o4-mini': 'o4-mini-2025-04-16',
};

/**
 * The dated snapshot OpenAI reports for an alias (e.g. `gpt-4o` → `gpt-4o-2024-08-06`); the gateway must hide it. A
 * name with no known snapshot (already dated, or not in the table) is reported as asked.
 */
export function snapshotOpenAiModel(model: string): string {
  return openAiSnapshots[model] ?? model;
}
