import type { ChatMessage, ChatRequest } from '../../openai-api/chat-request.ts';
import { assertNever } from '../shared/assert-never.ts';
import { readMaxOutputTokens } from '../shared/max-output-tokens.ts';
import { refuseUnsupportedParameters } from '../shared/refuse-unsupported-parameters.ts';
import { removeCacheControl } from '../shared/remove-cache-control.ts';
import { splitSignature } from '../shared/tool-call-id.ts';
import type { DialectQuirks, DialectRequestBody } from './dialect-quirks.ts';

/**
 * ChatRequest → an OpenAI-dialect request body. A parameter the vendor cannot honour (`quirks.unsupportedParameters`)
 * is refused with a 400. Every field passes through unchanged, unknown ones included, except:
 * - `model` becomes the route's upstream model, and `stream` says what the pipeline chose;
 * - the output limit is sent in the vendor's field (`max_completion_tokens` for OpenAI, whose reasoning models reject
 *   `max_tokens`), the smaller of the two when the client set both;
 * - when streaming, `stream_options.include_usage` is always true (usage is what we bill); the pipeline decides
 *   whether the client sees the usage chunk. Without streaming, `stream_options` has no meaning and is not sent;
 * - tool-call ids lose the reasoning signature the gateway appended for Anthropic and Gemini (`tool-call-id.ts`),
 *   which other vendors would reject (OpenAI allows 40 characters);
 * - Anthropic-style `cache_control` breakpoints are removed unless the vendor takes them (OpenRouter).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function convertRequest(input: {
  request: ChatRequest;
  upstreamModel: string;
  isStreaming: boolean;
  quirks: DialectQuirks;
}): DialectRequestBody {
  const { request, quirks } = input;
  refuseUnsupportedParameters({ request, vendorName: quirks.vendorName, parameters: quirks.unsupportedParameters });
  const { max_tokens: _maxTokens, max_completion_tokens: _maxCompletionTokens, stream_options, ...rest } = request;
  const body: DialectRequestBody = {
    ...rest,
    model: input.upstreamModel,
    stream: input.isStreaming,
    messages: request.messages.map(removeSignatures),
  };
  const maxOutputTokens = readMaxOutputTokens(request);
  if (maxOutputTokens !== undefined) body[quirks.maxTokensField] = maxOutputTokens;
  if (input.isStreaming && quirks.acceptsStreamOptions) {
    body.stream_options = { ...stream_options, include_usage: true };
  }
  return quirks.rewriteRequestBody(quirks.forwardsCacheControl ? body : removeCacheControl(body));
}

function removeSignatures(message: ChatMessage): ChatMessage {
  switch (message.role) {
    case 'assistant':
      return message.tool_calls === undefined
        ? message
        : { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: splitSignature(call.id).id })) };
    case 'tool':
      return { ...message, tool_call_id: splitSignature(message.tool_call_id).id };
    case 'system':
    case 'developer':
    case 'user':
      return message;
    default:
      return assertNever(message);
  }
}
