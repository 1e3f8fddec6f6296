import type { FinishReason } from '../openai-api/chat-completion.ts';
import type { StopReason } from './message-object.ts';

/**
 * OpenAI `finish_reason` → Anthropic `stop_reason`. OpenAI's `stop` covers both a natural end and a stop sequence,
 * so a stop sequence is reported as `end_turn` (docs/messages.md).
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function mapStopReason(finishReason: FinishReason): StopReason {
  const stopReasons = {
    stop: 'end_turn',
    length: 'max_tokens',
    tool_calls: 'tool_use',
    function_call: 'tool_use',
    content_filter: 'refusal',
  } as const satisfies Record<FinishReason, StopReason>;
  return stopReasons[finishReason];
}
