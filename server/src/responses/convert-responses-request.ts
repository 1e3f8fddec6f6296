import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ChatMessage, ChatRequest, ChatTool } from '../openai-api/chat-request.ts';
import type { ResponseSettings } from './response-object.ts';
import type {
  ResponsesContentPart,
  ResponsesInputItem,
  ResponsesRequest,
  ResponsesToolChoice,
} from './responses-request.ts';
import { contextSizes, webSearchFunctionName, type WebSearchSettings } from './web-search-tool.ts';

/** A Responses request as the gateway runs it: the chat request of the first model round, and what to echo. */
export type ResponsePlan = {
  /** Messages, the client's function tools, sampling and format; without the gateway's search tool. */
  chatRequest: ChatRequest;
  /** Set when the tools ask for web search and `tool_choice` does not rule tools out. */
  webSearch: WebSearchSettings | undefined;
  /** `tool_choice` named the web search tool: the first round must search. */
  isSearchForced: boolean;
  /** `max_output_tokens`: the output of every model round together stays under it. */
  maxOutputTokens: number | undefined;
  isStreaming: boolean;
  settings: ResponseSettings;
};

/**
 * CreateResponse → the chat request the pipeline runs (pure). Instructions become the first system message; input
 * items become chat messages (consecutive `function_call` items join one assistant message, as chat requires);
 * reasoning and `web_search_call` items a client sends back are skipped, since reasoning is vendor-specific and no
 * search result is kept. Anything the gateway cannot honour is a 400 naming the field.
 */
export function convertResponsesRequest(request: ResponsesRequest): ResponsePlan {
  rejectStatefulFields(request);
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  if (typeof request.input === 'string') {
    if (request.input.trim() === '') throw emptyInput();
    messages.push({ role: 'user', content: request.input });
  } else {
    request.input.forEach((item, index) => appendItem(messages, item, `input[${index}]`));
  }
  if (!messages.some((message) => message.role !== 'system')) throw emptyInput();

  const functionTools: ChatTool[] = [];
  let webSearchTool:
    Extract<NonNullable<ResponsesRequest['tools']>[number], { search_context_size?: unknown }> | undefined;
  (request.tools ?? []).forEach((tool, index) => {
    if (tool.type !== 'function') {
      webSearchTool ??= tool;
      return;
    }
    if (tool.name === webSearchFunctionName && request.tools?.some((other) => other.type !== 'function')) {
      throw new InvalidRequestError(
        `The function name '${webSearchFunctionName}' is reserved for the gateway's web search while a web_search tool is given; rename the function.`,
        { param: `tools[${index}].name` },
      );
    }
    functionTools.push({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        ...(tool.parameters ? { parameters: tool.parameters } : {}),
        ...(tool.strict === undefined || tool.strict === null ? {} : { strict: tool.strict }),
      },
    });
  });
  const toolChoice = request.tool_choice ?? 'auto';
  checkToolChoice(toolChoice, { functionTools, hasWebSearch: webSearchTool !== undefined });
  const isSearchForced = typeof toolChoice === 'object' && toolChoice.type !== 'function';
  const contextSize = contextSizes[webSearchTool?.search_context_size ?? 'medium'];
  const allowedDomains = webSearchTool?.filters?.allowed_domains?.map((domain) => domain.trim().toLowerCase());
  const webSearch: WebSearchSettings | undefined =
    webSearchTool && toolChoice !== 'none'
      ? {
          ...contextSize,
          allowedDomains: allowedDomains && allowedDomains.length > 0 ? allowedDomains : undefined,
          isSourcesIncluded: request.include?.includes('web_search_call.action.sources') === true,
        }
      : undefined;

  const format = request.text?.format;
  const chatRequest: ChatRequest = {
    model: request.model,
    messages,
    ...(functionTools.length > 0 ? { tools: functionTools, tool_choice: toChatToolChoice(toolChoice) } : {}),
    ...(functionTools.length > 0 && typeof request.parallel_tool_calls === 'boolean'
      ? { parallel_tool_calls: request.parallel_tool_calls }
      : {}),
    ...(request.temperature === undefined || request.temperature === null ? {} : { temperature: request.temperature }),
    ...(request.top_p === undefined || request.top_p === null ? {} : { top_p: request.top_p }),
    ...(request.reasoning?.effort ? { reasoning_effort: request.reasoning.effort } : {}),
    ...(format?.type === 'json_schema'
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: format.name,
              schema: format.schema,
              ...(format.description === undefined ? {} : { description: format.description }),
              ...(format.strict === undefined || format.strict === null ? {} : { strict: format.strict }),
            },
          },
        }
      : {}),
    ...(format?.type === 'json_object' ? { response_format: { type: 'json_object' } } : {}),
  };
  return {
    chatRequest,
    webSearch,
    isSearchForced: isSearchForced && webSearch !== undefined,
    maxOutputTokens: request.max_output_tokens ?? undefined,
    isStreaming: request.stream === true,
    settings: {
      instructions: request.instructions ?? null,
      tools: request.tools ?? [],
      tool_choice: toolChoice,
      parallel_tool_calls: request.parallel_tool_calls ?? true,
      temperature: request.temperature ?? null,
      top_p: request.top_p ?? null,
      max_output_tokens: request.max_output_tokens ?? null,
      metadata: request.metadata ?? {},
      reasoning: request.reasoning
        ? { effort: request.reasoning.effort ?? null, summary: request.reasoning.summary ?? null }
        : null,
      text: { format: format ?? { type: 'text' } },
    },
  };
}

function rejectStatefulFields(request: ResponsesRequest): void {
  const stateless =
    'This gateway is stateless: it never stores a request or a response, so send the whole conversation in `input`.';
  if (request.previous_response_id) {
    throw new InvalidRequestError(`\`previous_response_id\` is not supported. ${stateless}`, {
      param: 'previous_response_id',
      code: 'unsupported_parameter',
    });
  }
  if (request.store === true) {
    throw new InvalidRequestError(`\`store: true\` is not supported. ${stateless} Omit \`store\` or set it to false.`, {
      param: 'store',
      code: 'unsupported_parameter',
    });
  }
  if (request.conversation !== undefined && request.conversation !== null) {
    throw new InvalidRequestError(`\`conversation\` is not supported. ${stateless}`, {
      param: 'conversation',
      code: 'unsupported_parameter',
    });
  }
  if (request.background === true) {
    throw new InvalidRequestError('Background responses are not supported: they need a stored response to poll.', {
      param: 'background',
      code: 'unsupported_parameter',
    });
  }
  if (request.truncation === 'auto') {
    throw new InvalidRequestError('`truncation: "auto"` is not supported: the gateway never drops input items.', {
      param: 'truncation',
      code: 'unsupported_value',
    });
  }
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
    case 'function_call': {
      const call = {
        id: item.call_id,
        type: 'function' as const,
        function: { name: item.name, arguments: item.arguments },
      };
      const previous = messages.at(-1);
      if (previous?.role === 'assistant') previous.tool_calls = [...(previous.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      return;
    }
    case 'function_call_output':
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

function checkToolChoice(
  choice: ResponsesToolChoice,
  tools: { functionTools: readonly ChatTool[]; hasWebSearch: boolean },
): void {
  if (typeof choice === 'string') return;
  if (choice.type === 'function') {
    if (!tools.functionTools.some((tool) => tool.function.name === choice.name)) {
      throw new InvalidRequestError(`\`tool_choice\` names the function '${choice.name}', which is not in \`tools\`.`, {
        param: 'tool_choice',
      });
    }
    return;
  }
  if (!tools.hasWebSearch) {
    throw new InvalidRequestError(`\`tool_choice\` asks for ${choice.type}, which is not in \`tools\`.`, {
      param: 'tool_choice',
    });
  }
}

function toChatToolChoice(choice: ResponsesToolChoice): ChatRequest['tool_choice'] {
  if (typeof choice === 'string') return choice;
  if (choice.type === 'function') return { type: 'function', function: { name: choice.name } };
  return 'auto';
}
