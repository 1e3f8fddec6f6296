import type { FinishReason } from '../../openai-api/chat-completion.ts';

/**
 * Gemini `finishReason` → OpenAI `finish_reason` (docs/reference/gemini.md §Response, docs/reference/mapping.md). A function call ends with `STOP`, so
 * `tool_calls` is inferred from the candidate's `functionCall` parts. Safety, recitation and blocklist stops are
 * `content_filter`; malformed or unexpected tool calls, `LANGUAGE`, `OTHER`, unknown and missing values fall back
 * to `stop` (the answer ended; OpenAI has no closer name).
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapFinishReason(finishReason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (finishReason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}
