import type { FinishReason } from '../shared/plan-answer.ts';
import type { DialectQuirks } from './dialect-quirks.ts';

/** @see docs/reference/openai.md §Chat Completions: `stop` covers stop sequences; OpenAI reports refusals in a field and stops normally. */
export function mapChatFinishReason(reason: FinishReason, quirks: DialectQuirks): string {
  switch (reason) {
    case 'stop':
    case 'stop-sequence':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'refusal':
      return quirks.hasRefusalField ? 'stop' : 'content_filter';
    default:
      return assertNever(reason);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected finish reason ${String(value)}`);
}
