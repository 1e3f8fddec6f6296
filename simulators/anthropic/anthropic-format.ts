import type { AnswerPlan, FinishReason } from '../shared/plan-answer.ts';

/** `stop_reason` (docs/reference/anthropic.md §Response). @see https://docs.claude.com/en/api/messages */
export function mapStopReason(reason: FinishReason): string {
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'stop-sequence':
      return 'stop_sequence';
    case 'refusal':
      return 'refusal';
    default:
      return assertNever(reason);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected finish reason ${String(value)}`);
}

/** Usage (docs/reference/anthropic.md §Response): `input_tokens` excludes cache reads and writes; thinking counts as output. */
export function formatAnthropicUsage(plan: AnswerPlan, cacheTtl: '5m' | '1h'): Record<string, unknown> {
  const { usage } = plan;
  const formatted: Record<string, unknown> = {
    input_tokens: usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: cacheTtl === '5m' ? usage.cacheWriteTokens : 0,
      ephemeral_1h_input_tokens: cacheTtl === '1h' ? usage.cacheWriteTokens : 0,
    },
    output_tokens: usage.outputTokens,
    service_tier: 'standard',
  };
  if (usage.searchRequests > 0)
    formatted['server_tool_use'] = { web_search_requests: usage.searchRequests, web_fetch_requests: 0 };
  if (usage.reasoningTokens > 0) formatted['output_tokens_details'] = { thinking_tokens: usage.reasoningTokens };
  return formatted;
}

/** The dated snapshot Anthropic reports for an alias (`claude-sonnet-4-5` → `claude-sonnet-4-5-20250929`). */
export function snapshotAnthropicModel(model: string): string {
  return /-\d{8}$/.test(model) ? model : `${model}-20250929`;
}
