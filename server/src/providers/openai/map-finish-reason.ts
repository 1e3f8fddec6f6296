import type { FinishReason } from '../../openai-api/chat-completion.ts';
import { assertNever } from '../shared/assert-never.ts';
import type { DialectQuirks } from './dialect-quirks.ts';

const openAiFinishReasons = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'] as const;
type OpenAiFinishReason = (typeof openAiFinishReasons)[number];

/**
 * An OpenAI-dialect `finish_reason` → the canonical one; `undefined` while a streamed choice is still running.
 * Vendor extras go through the quirk hook; any other value falls back to `stop` (the answer ended, for a reason
 * OpenAI clients have no name for). `error` means the vendor failed mid-answer.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function mapFinishReason(
  value: string | null | undefined,
  quirks: Pick<DialectQuirks, 'mapExtraFinishReason'>,
): FinishReason | 'error' | undefined {
  if (value === null || value === undefined) return undefined;
  if (isOpenAiFinishReason(value)) return mapOpenAiFinishReason(value);
  return quirks.mapExtraFinishReason(value) ?? 'stop';
}

function isOpenAiFinishReason(value: string): value is OpenAiFinishReason {
  return (openAiFinishReasons as readonly string[]).includes(value);
}

function mapOpenAiFinishReason(value: OpenAiFinishReason): FinishReason {
  switch (value) {
    case 'stop':
    case 'length':
    case 'tool_calls':
    case 'content_filter':
    case 'function_call':
      return value;
    default:
      return assertNever(value);
  }
}
