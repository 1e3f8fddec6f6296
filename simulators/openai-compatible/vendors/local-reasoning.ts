import { reasoningForEffort, type ReasoningRequest } from '../../shared/conversation.ts';
import type { ChatRequest } from '../chat-request-schema.ts';

/** Self-hosted servers reason when the loaded model is a reasoning model (by its usual name) or when asked to. */
export function localReasoningFor(request: ChatRequest): ReasoningRequest | undefined {
  const isReasoningModel = /r1|qwq|reason|think|qwen3|gpt-oss/i.test(request.model);
  return isReasoningModel || request.reasoning_effort
    ? reasoningForEffort(request.reasoning_effort ?? 'medium')
    : undefined;
}
