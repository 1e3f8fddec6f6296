import type { FinishReason } from '../../openai-api/chat-completion.ts';

/**
 * Anthropic `stop_reason` → OpenAI `finish_reason` (docs/reference/mapping.md). `pause_turn` (a server tool paused a long turn)
 * maps to `stop`: the gateway sends no server tools, and the answer so far is complete text. `refusal` is
 * `content_filter`. Unknown or missing values fall back to `stop`.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function mapFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
