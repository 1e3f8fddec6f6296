import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ChatMessage } from '../openai-api/chat-request.ts';
import { flatToolName } from './flatten-tool-groups.ts';
import type { ResponsesContentPart, ResponsesInputItem, ResponsesRequest } from './responses-request.ts';

/**
 * `instructions` and `input` → chat messages (pure). Instructions become the first system message; consecutive
 * `function_call` items join one assistant message, as chat requires (a namespaced or custom tool's call under the
 * flat function name the vendor knows it by, `flatten-tool-groups.ts`); reasoning and `web_search_call` items a client
 * sends back are skipped, since reasoning is vendor-specific and no search result is kept. An input without any
 * message is a 400.
 */
export function convertInputToMessages(request: Pick<ResponsesRequest, 'instructions' | 'input'>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  if (typeof request.input === 'string') {
    if (request.input.trim() === '') throw emptyInput();
    messages.push({ role: 'user', content: request.input });
  } else {
    request.input.forEach((item, index) => appendItem(messages, item, `input[${index}]`));
  }
  if (!messages.some((message) => message.role !== 'system')) throw emptyInput();
  return messages;
}

/**
 * A `function_call_output` answers a `function_call` of the calls just before it (other outputs may come between):
 * every vendor's chat format needs the tool result right after the assistant turn that called it.
 */
function refuseUnansweredOutput(messages: readonly ChatMessage[], input: { callId: string; param: string }): void {
  const lastTurn = [...messages].reverse().find((message) => message.role !== 'tool');
  const isAnswer =
    lastTurn?.role === 'assistant' && (lastTurn.tool_calls ?? []).some((call) => call.id === input.callId);
  if (isAnswer) return;
  throw new InvalidRequestError(
    `No function_call with call_id '${input.callId}' comes before this function_call_output: send the function_call item (as the response gave it) right before its output.`,
    { param: input.param },
  );
}

function appendToolCall(messages: ChatMessage[], input: { callId: string; name: string; arguments: string }): void {
  const call = {
    id: input.callId,
    type: 'function' as const,
    function: { name: input.name, arguments: input.arguments },
  };
  const previous = messages.at(-1);
  if (previous?.role === 'assistant') previous.tool_calls = [...(previous.tool_calls ?? []), call];
  else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
}

function emptyInput(): InvalidRequestError {
  return new InvalidRequestError('`input` is empty: send at least one message.', { param: 'input' });
}

function appendItem(messages: ChatMessage[], item: ResponsesInputItem, param: string): void {
  switch (item.type) {
    case 'message': {
      if (item.role === 'assistant') {
        messages.push({ role: 'assistant', content: readAssistantText(item.content, `${param}.content`) });
        return;
      }
      if (item.role === 'user') {
        messages.push({ role: 'user', content: convertUserContent(item.content, `${param}.content`) });
        return;
      }
      messages.push({ role: item.role, content: readPlainText(item.content, `${param}.content`) });
      return;
    }
    case 'function_call':
      appendToolCall(messages, {
        callId: item.call_id,
        name: flatToolName(item.namespace, item.name),
        arguments: item.arguments,
      });
      return;
    case 'custom_tool_call':
      // A custom tool is a function of one string argument for the vendor (`flatten-tool-groups.ts`).
      appendToolCall(messages, {
        callId: item.call_id,
        name: flatToolName(item.namespace, item.name),
        arguments: JSON.stringify({ input: item.input }),
      });
      return;
    case 'function_call_output':
    case 'custom_tool_call_output':
      refuseUnansweredOutput(messages, { callId: item.call_id, param: `${param}.call_id` });
      messages.push({
        role: 'tool',
        tool_call_id: item.call_id,
        content: readPlainText(item.output, `${param}.output`),
      });
      return;
    case 'reasoning':
    case 'web_search_call':
      return;
    case 'item_reference':
      throw new InvalidRequestError(
        'Input items of type `item_reference` are not supported: this gateway stores no items to refer to. Send the item itself.',
        { param: `${param}.type`, code: 'unsupported_value' },
      );
    default:
      item satisfies never;
  }
}

type ChatUserContent = Extract<ChatMessage, { role: 'user' }>['content'];

function convertUserContent(content: string | ResponsesContentPart[], param: string): ChatUserContent {
  if (typeof content === 'string') return content;
  if (content.length === 0) throw new InvalidRequestError(`\`${param}\` is empty.`, { param });
  return content.map((part, index) => {
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        return { type: 'text' as const, text: part.text };
      case 'input_image': {
        if (!part.image_url) {
          throw new InvalidRequestError(
            '`input_image` needs an `image_url` (a URL or a data URL); file ids are not supported.',
            {
              param: `${param}[${index}].image_url`,
            },
          );
        }
        const detail = part.detail === 'original' ? 'high' : part.detail;
        return { type: 'image_url' as const, image_url: { url: part.image_url, ...(detail ? { detail } : {}) } };
      }
      default:
        throw unsupportedPart(part.type, `${param}[${index}].type`);
    }
  });
}

function readAssistantText(content: string | ResponsesContentPart[], param: string): string {
  if (typeof content === 'string') return content;
  return content
    .map((part, index) => {
      if (part.type === 'output_text' || part.type === 'input_text') return part.text;
      if (part.type === 'refusal') return part.refusal;
      throw unsupportedPart(part.type, `${param}[${index}].type`);
    })
    .join('');
}

function readPlainText(content: string | ResponsesContentPart[], param: string): string {
  if (typeof content === 'string') return content;
  return content
    .map((part, index) => {
      if (part.type === 'input_text' || part.type === 'output_text') return part.text;
      throw unsupportedPart(part.type, `${param}[${index}].type`);
    })
    .join('\n');
}

function unsupportedPart(type: string, param: string): InvalidRequestError {
  return new InvalidRequestError(`Content parts of type \`${type}\` are not supported here.`, {
    param,
    code: 'unsupported_value',
  });
}
