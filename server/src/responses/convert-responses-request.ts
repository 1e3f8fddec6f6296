import { clipEcho } from '../lib/clip-echo.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ChatRequest, ChatTool } from '../openai-api/chat-request.ts';
import type { ResponseSettings } from './response-object.ts';
import { convertInputToMessages } from './convert-input-items.ts';
import { flattenToolGroups, type ToolOrigins } from './flatten-tool-groups.ts';
import type { ResponsesRequest, ResponsesToolChoice, ResponsesWebSearchTool } from './responses-request.ts';
import {
  contextSizes,
  defaultMaxSearches,
  maxSearchesLimit,
  webSearchFunctionName,
  type WebSearchSettings,
} from './web-search-tool.ts';

/** A Responses request as the gateway runs it: the chat request of the first model round, and what to echo. */
export type ResponsePlan = {
  /** Messages, the client's function tools, sampling and format; without the gateway's search tool. */
  chatRequest: ChatRequest;
  /** Set when the tools ask for web search and `tool_choice` does not rule tools out. */
  webSearch: WebSearchSettings | undefined;
  /** `tool_choice` named the web search tool, or is `required` with web search the only tool: the first round must search. */
  isSearchForced: boolean;
  /** `reasoning.summary`: vendors that return reasoning only as a summary (OpenAI) are asked for one. */
  reasoningSummary: 'auto' | 'concise' | 'detailed' | undefined;
  /** Namespaced and custom tools by their flat chat name: their calls are answered as the client defined them. */
  toolOrigins: ToolOrigins;
  /** `max_output_tokens`: the output of every model round together stays under it. */
  maxOutputTokens: number | undefined;
  isStreaming: boolean;
  settings: ResponseSettings;
};

/**
 * CreateResponse → the chat request the pipeline runs (pure): input as messages (`convert-input-items.ts`), flat
 * function tools as chat tools, `text.format` as `response_format`, web search as settings for the rounds. Anything
 * the gateway cannot honour is a 400 naming the field.
 */
export function convertResponsesRequest(request: ResponsesRequest): ResponsePlan {
  rejectStatefulFields(request);
  checkInclude(request.include);
  const messages = convertInputToMessages(request);
  const flattened = flattenToolGroups(request.tools ?? []);
  const { functionTools, webSearchTool } = convertTools(flattened.tools);
  const toolChoice = request.tool_choice ?? 'auto';
  checkToolChoice(toolChoice, { functionTools, hasWebSearch: webSearchTool !== undefined });
  const webSearch = webSearchTool && toolChoice !== 'none' ? readWebSearchSettings(webSearchTool, request) : undefined;
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
    ...convertTextFormat(format),
  };
  return {
    chatRequest,
    webSearch,
    isSearchForced: webSearch !== undefined && isSearchForced(toolChoice, functionTools.length),
    reasoningSummary: request.reasoning?.summary ?? undefined,
    toolOrigins: flattened.origins,
    maxOutputTokens: request.max_output_tokens ?? undefined,
    isStreaming: request.stream === true,
    settings: {
      instructions: request.instructions ?? null,
      // A function tool's `strict` and `parameters` are required in the Response: null when the client left them out.
      tools: (request.tools ?? []).map((tool) =>
        tool.type === 'function' ? { ...tool, strict: tool.strict ?? null, parameters: tool.parameters ?? null } : tool,
      ),
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

function convertTools(tools: ReturnType<typeof flattenToolGroups>['tools']): {
  functionTools: ChatTool[];
  webSearchTool: ResponsesWebSearchTool | undefined;
} {
  const functionTools: ChatTool[] = [];
  let webSearchTool: ResponsesWebSearchTool | undefined;
  const hasWebSearch = tools.some((tool) => tool.type !== 'function');
  tools.forEach((tool, index) => {
    if (tool.type !== 'function') {
      webSearchTool ??= tool;
      return;
    }
    if (tool.name === webSearchFunctionName && hasWebSearch) {
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
  return { functionTools, webSearchTool };
}

/** `required` with no function to call can only be met by searching. */
function isSearchForced(choice: ResponsesToolChoice, functionToolCount: number): boolean {
  if (typeof choice === 'object') return choice.type !== 'function' && choice.type !== 'custom';
  return choice === 'required' && functionToolCount === 0;
}

function readWebSearchSettings(tool: ResponsesWebSearchTool, request: ResponsesRequest): WebSearchSettings {
  const allowedDomains = tool.filters?.allowed_domains?.map((domain) => domain.trim().toLowerCase());
  const hasDomains = allowedDomains !== undefined && allowedDomains.length > 0;
  return {
    ...contextSizes[tool.search_context_size ?? 'medium'],
    allowedDomains: hasDomains ? allowedDomains : undefined,
    isSourcesIncluded: request.include?.includes('web_search_call.action.sources') === true,
    maxSearches: readMaxSearches(request.max_tool_calls),
    vendorTool: {
      ...(tool.search_context_size ? { search_context_size: tool.search_context_size } : {}),
      ...(hasDomains ? { filters: { allowed_domains: allowedDomains } } : {}),
      ...(tool.user_location === undefined || tool.user_location === null ? {} : { user_location: tool.user_location }),
    },
  };
}

/** `max_tool_calls` caps the built-in tool calls, here the searches; more than the hold can cover is refused. */
function readMaxSearches(maxToolCalls: number | null | undefined): number {
  if (maxToolCalls === undefined || maxToolCalls === null) return defaultMaxSearches;
  if (maxToolCalls > maxSearchesLimit) {
    throw new InvalidRequestError(
      `\`max_tool_calls\` may be at most ${maxSearchesLimit} here: one credit hold covers every search of a response.`,
      { param: 'max_tool_calls', code: 'integer_above_max_value' },
    );
  }
  return maxToolCalls;
}

/** `text.format` (flat) → chat's `response_format` (json_schema wrapped); plain text needs none. */
function convertTextFormat(format: NonNullable<ResponsesRequest['text']>['format']): Partial<ChatRequest> {
  if (format?.type === 'json_object') return { response_format: { type: 'json_object' } };
  if (format?.type !== 'json_schema') return {};
  return {
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: format.name,
        schema: format.schema,
        ...(format.description === undefined ? {} : { description: format.description }),
        ...(format.strict === undefined || format.strict === null ? {} : { strict: format.strict }),
      },
    },
  };
}

/**
 * The `include` values the gateway takes: the sources of its searches, and `reasoning.encrypted_content`, which
 * stateless clients ask for on every call; reasoning items come without it, as the gateway sends no reasoning back to a
 * vendor (they are skipped in `input`). Anything else is refused as OpenAI refuses an unknown value, naming the entry.
 */
const supportedIncludes: readonly string[] = ['web_search_call.action.sources', 'reasoning.encrypted_content'];

function checkInclude(include: readonly string[] | null | undefined): void {
  (include ?? []).forEach((value, index) => {
    if (supportedIncludes.includes(value)) return;
    const supported = supportedIncludes.map((name) => `'${name}'`).join(', ');
    throw new InvalidRequestError(`Invalid value: '${clipEcho(value)}'. Supported values are: ${supported}.`, {
      param: `include[${index}]`,
      code: 'invalid_value',
    });
  });
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

function checkToolChoice(
  choice: ResponsesToolChoice,
  tools: { functionTools: readonly ChatTool[]; hasWebSearch: boolean },
): void {
  if (typeof choice === 'string') return;
  if (choice.type === 'function' || choice.type === 'custom') {
    if (!tools.functionTools.some((tool) => tool.function.name === choice.name)) {
      throw new InvalidRequestError(`\`tool_choice\` names the tool '${choice.name}', which is not in \`tools\`.`, {
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
  if (choice.type === 'function' || choice.type === 'custom') {
    return { type: 'function', function: { name: choice.name } };
  }
  return 'auto';
}
