import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatMessage, ChatRequest, ChatTool } from '../../openai-api/chat-request.ts';
import { assertNever } from '../shared/assert-never.ts';
import { readMaxOutputTokens } from '../shared/max-output-tokens.ts';
import type { NativeSearchRequest } from '../shared/native-web-search.ts';
import { splitSignature } from '../shared/tool-call-id.ts';

/** How one `/v1/responses` round reaches OpenAI's own Responses API. */
export type OpenAiResponsesOptions = {
  /** `reasoning.summary` of the client's request: OpenAI returns reasoning text only as a summary it was asked for. */
  reasoningSummary: 'auto' | 'concise' | 'detailed' | undefined;
  /**
   * Set when the operator lets OpenAI search (NATIVE_WEB_SEARCH): the gateway's own search function
   * (`replacedFunctionName`) is left out and OpenAI's `web_search` tool, with the client's settings, is offered instead.
   */
  nativeSearch: NativeSearchRequest | undefined;
};

type ResponsesInputItem = Record<string, unknown>;
type ResponsesRequestBody = Record<string, unknown>;

/**
 * The chat request of one model round → a Responses API request body (docs/reference/openai.md §Responses): messages become input
 * items (system and developer messages stay messages, assistant tool calls become `function_call` items, tool
 * results `function_call_output` items), function tools become flat tools, `response_format` becomes `text.format`,
 * the output limit `max_output_tokens`. `store` is always false: the gateway keeps nothing and asks OpenAI to keep
 * nothing either. Fields a Responses round never carries (`stop`, `n`, `seed`, penalties) are refused, never dropped.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function convertResponsesRequest(input: {
  request: ChatRequest;
  upstreamModel: string;
  isStreaming: boolean;
  options: OpenAiResponsesOptions;
}): ResponsesRequestBody {
  const { request, options } = input;
  refuseChatOnlyFields(request);
  const search = options.nativeSearch;
  const functionTools = (request.tools ?? []).filter((tool) => tool.function.name !== search?.replacedFunctionName);
  const tools = [
    ...functionTools.map(convertFunctionTool),
    ...(search ? [{ type: 'web_search', ...search.tool }] : []),
  ];
  const maxOutputTokens = readMaxOutputTokens(request);
  const effort = request.reasoning_effort ?? undefined;
  const reasoning =
    effort === undefined && options.reasoningSummary === undefined
      ? undefined
      : {
          ...(effort === undefined ? {} : { effort }),
          ...(options.reasoningSummary ? { summary: options.reasoningSummary } : {}),
        };
  return {
    model: input.upstreamModel,
    input: request.messages.flatMap(convertMessage),
    stream: input.isStreaming,
    store: false,
    ...(tools.length > 0 ? { tools, tool_choice: convertToolChoice(request.tool_choice, search) } : {}),
    ...(tools.length > 0 && request.parallel_tool_calls !== undefined
      ? { parallel_tool_calls: request.parallel_tool_calls }
      : {}),
    ...(search ? { include: ['web_search_call.action.sources'], max_tool_calls: search.maxSearches } : {}),
    ...(maxOutputTokens === undefined ? {} : { max_output_tokens: maxOutputTokens }),
    ...(request.temperature === undefined || request.temperature === null ? {} : { temperature: request.temperature }),
    ...(request.top_p === undefined || request.top_p === null ? {} : { top_p: request.top_p }),
    ...(reasoning ? { reasoning } : {}),
    ...convertResponseFormat(request.response_format),
  };
}

function refuseChatOnlyFields(request: ChatRequest): void {
  const chatOnly = ['stop', 'n', 'seed', 'presence_penalty', 'frequency_penalty', 'logprobs', 'top_logprobs'] as const;
  for (const field of chatOnly) {
    const value: unknown = (request as Record<string, unknown>)[field];
    if (value === undefined || value === null || (field === 'n' && value === 1)) continue;
    throw new InvalidRequestError(`\`${field}\` is not a parameter of OpenAI's Responses API.`, {
      param: field,
      code: 'unsupported_parameter',
    });
  }
}

function convertMessage(message: ChatMessage): ResponsesInputItem[] {
  switch (message.role) {
    case 'system':
    case 'developer':
      return [{ type: 'message', role: message.role, content: joinText(message.content) }];
    case 'user':
      return [{ type: 'message', role: 'user', content: convertUserContent(message.content) }];
    case 'assistant': {
      const text = message.content === null || message.content === undefined ? '' : joinText(message.content);
      const calls = (message.tool_calls ?? []).map((call) => ({
        type: 'function_call',
        call_id: splitSignature(call.id).id,
        name: call.function.name,
        arguments: call.function.arguments,
      }));
      return [...(text === '' ? [] : [{ type: 'message', role: 'assistant', content: text }]), ...calls];
    }
    case 'tool':
      return [
        {
          type: 'function_call_output',
          call_id: splitSignature(message.tool_call_id).id,
          output: joinText(message.content),
        },
      ];
    default:
      return assertNever(message);
  }
}

function convertUserContent(content: Extract<ChatMessage, { role: 'user' }>['content']): unknown {
  if (typeof content === 'string') return content;
  return content.map((part) => {
    switch (part.type) {
      case 'text':
        return { type: 'input_text', text: part.text };
      case 'image_url':
        return { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' };
      case 'input_audio':
      case 'file':
      case 'refusal':
        throw new InvalidRequestError(`Content parts of type \`${part.type}\` cannot be sent to the Responses API.`, {
          param: 'input',
          code: 'unsupported_value',
        });
      default:
        return assertNever(part);
    }
  });
}

function joinText(content: string | ReadonlyArray<{ type: string; text?: unknown }>): string {
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('');
}

function convertFunctionTool(tool: ChatTool): Record<string, unknown> {
  const { name, description, parameters, strict } = tool.function;
  return {
    type: 'function',
    name,
    ...(description === undefined ? {} : { description }),
    parameters: parameters ?? { type: 'object', properties: {} },
    // Left out when the client said nothing, so OpenAI's own default applies, as if the client had called it.
    ...(strict === undefined || strict === null ? {} : { strict }),
  };
}

/** A choice naming the gateway's search function means "search now": only the vendor's search tool is allowed. */
function convertToolChoice(choice: ChatRequest['tool_choice'], search: NativeSearchRequest | undefined): unknown {
  if (choice === undefined) return 'auto';
  if (typeof choice === 'string') return choice;
  if (search && choice.function.name === search.replacedFunctionName) {
    return { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] };
  }
  return { type: 'function', name: choice.function.name };
}

function convertResponseFormat(format: ChatRequest['response_format']): ResponsesRequestBody {
  if (format === undefined || format.type === 'text') return {};
  if (format.type === 'json_object') return { text: { format: { type: 'json_object' } } };
  const { name, description, schema, strict } = format.json_schema;
  return {
    text: {
      format: {
        type: 'json_schema',
        name,
        schema: schema ?? {},
        ...(description === undefined ? {} : { description }),
        ...(strict === undefined || strict === null ? {} : { strict }),
      },
    },
  };
}
