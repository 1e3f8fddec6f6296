import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../openai-api/chat-request.ts';
import type { DialectQuirks, DialectRequestBody } from '../openai/dialect-quirks.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';
import { readUnwrappedError } from '../openai-compatible/read-error-bodies.ts';

const mistralIdPattern = /^[a-zA-Z0-9]{9}$/;
const alphanumerics = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Mistral: tool-call ids must be exactly nine alphanumerics, and ids from other vendors in the history (`call_…`,
 * `toolu_…`) are refused with a 400, so replayed ids are rewritten (deterministically, so a call and its result still
 * match); `random_seed` instead of `seed`; `tool_choice: "any"` for "required"; no `stream_options` (usage always
 * comes on the last chunk); error bodies without the `error` wrapper; finish reasons `model_length` and `error`.
 * @see https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
 */
export const mistralQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'Mistral',
  acceptsStreamOptions: false,
  rewriteRequestBody: rewriteMistralRequest,
  mapExtraFinishReason: (value) => (value === 'model_length' ? 'length' : value === 'error' ? 'error' : undefined),
  readErrorBody: readUnwrappedError,
};

function rewriteMistralRequest(body: DialectRequestBody): DialectRequestBody {
  const { seed, tool_choice, ...rest } = body;
  return {
    ...rest,
    messages: body.messages.map(rewriteToolCallIds),
    ...(seed === undefined || seed === null ? {} : { random_seed: seed }),
    ...(tool_choice === undefined ? {} : { tool_choice: tool_choice === 'required' ? 'any' : tool_choice }),
  };
}

function rewriteToolCallIds(message: ChatMessage): ChatMessage {
  if (message.role === 'tool') return { ...message, tool_call_id: toMistralToolCallId(message.tool_call_id) };
  if (message.role !== 'assistant' || message.tool_calls === undefined) return message;
  return {
    ...message,
    tool_calls: message.tool_calls.map((call) => ({ ...call, id: toMistralToolCallId(call.id) })),
  };
}

/** Ids Mistral issued pass unchanged; any other id maps to the same nine characters every time. */
export function toMistralToolCallId(id: string): string {
  if (mistralIdPattern.test(id)) return id;
  const digest = createHash('sha256').update(id).digest();
  return Array.from(digest.subarray(0, 9), (byte) => alphanumerics[byte % alphanumerics.length]).join('');
}
