import type { ChatCompletion } from '../openai-api/chat-completion.ts';
import { convertUsage } from './convert-usage.ts';
import { mapStopReason } from './map-stop-reason.ts';
import type { ContentBlock, Message } from './message-object.ts';
import { parseToolInput } from './parse-tool-input.ts';
import { toToolUseId } from './tool-use-id.ts';

/**
 * A chat completion → an Anthropic `Message`: reasoning text as a `thinking` block first (its signature is empty:
 * the vendor's signature, when there is one, travels in the tool-use id), then the answer text (or the refusal
 * text, with `stop_reason: "refusal"`), then one `tool_use` block per tool call.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertChatCompletion(completion: ChatCompletion, identity: { id: string; model: string }): Message {
  const choice = completion.choices[0];
  const content: ContentBlock[] = [];
  const message = choice?.message;
  if (message?.reasoning_content) {
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  }
  if (message?.content) content.push({ type: 'text', text: message.content });
  if (message?.refusal) content.push({ type: 'text', text: message.refusal });
  for (const call of message?.tool_calls ?? []) {
    content.push({
      type: 'tool_use',
      id: toToolUseId(call.id),
      name: call.function.name,
      input: parseToolInput(call.function.arguments),
    });
  }
  const isRefusal = Boolean(message?.refusal);
  return {
    id: identity.id,
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content,
    stop_reason: isRefusal ? 'refusal' : mapStopReason(choice?.finish_reason ?? 'stop'),
    stop_sequence: null,
    usage: convertUsage(completion.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }),
  };
}
