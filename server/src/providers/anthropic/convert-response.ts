import type { ChatCompletion, ToolCall } from '../../openai-api/chat-completion.ts';
import { createCompletion } from '../shared/create-completion.ts';
import { parseVendorBody } from '../shared/parse-vendor-body.ts';
import { attachSignature } from '../shared/tool-call-id.ts';
import { anthropicMessageSchema } from './anthropic-api.ts';
import { convertAnthropicUsage } from './convert-usage.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { readKnownBlock } from './read-known-block.ts';

/**
 * An Anthropic Message → ChatCompletion: text blocks joined into `content`, thinking into `reasoning_content`,
 * `tool_use` blocks into tool calls with their input as a JSON string. When exactly one signed thinking block
 * precedes the tool calls, its signature rides on the first tool call's id (`shared/tool-call-id.ts`), so the next
 * turn can hand the thinking block back as Anthropic requires.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertResponse(input: {
  body: unknown;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
}): ChatCompletion {
  const message = parseVendorBody(anthropicMessageSchema, input.body, 'Anthropic');
  const blocks = message.content.flatMap((block) => readKnownBlock(block) ?? []);
  const thinkingBlocks = blocks.filter((block) => block.type === 'thinking');
  const signature = thinkingBlocks.length === 1 ? (thinkingBlocks[0]?.signature ?? undefined) : undefined;
  const toolCalls = blocks
    .filter((block) => block.type === 'tool_use')
    .map((block, callIndex): ToolCall => ({
      id: callIndex === 0 ? attachSignature(block.id, signature) : block.id,
      type: 'function',
      function: { name: block.name, arguments: JSON.stringify(block.input) },
    }));
  return createCompletion({
    id: input.id,
    created: input.createdUnixSeconds,
    model: input.requestedModel,
    choices: [
      {
        index: 0,
        text: blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
        reasoning: thinkingBlocks.map((block) => block.thinking).join(''),
        toolCalls,
        finishReason: mapFinishReason(message.stop_reason),
      },
    ],
    usage: convertAnthropicUsage(message.usage),
  });
}
