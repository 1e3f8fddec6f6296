import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ChatRequest, ChatTool } from '../openai-api/chat-request.ts';
import { carryCacheControl } from './carry-cache-control.ts';
import { convertMessageParams } from './convert-message-params.ts';
import { isWebSearchTool, type MessagesRequest, type ToolParam } from './messages-request.ts';

type ReasoningEffort = NonNullable<ChatRequest['reasoning_effort']>;

/**
 * An Anthropic Messages request → the gateway's ChatRequest, which the chat pipeline sends to whichever vendor serves
 * the model (docs/reference/mapping.md, read right to left). Fields with no equivalent on every vendor are refused with a
 * 400 naming them (`top_k`, server tools, documents); the mapping is listed in docs/messages.md.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertMessagesRequest(request: MessagesRequest): ChatRequest {
  if (request.thread !== undefined && request.thread !== null) {
    throw new InvalidRequestError(
      'thread is not supported: this gateway is stateless and keeps no conversation. Send the whole conversation in messages on every turn.',
      { param: 'thread', code: 'unsupported_parameter' },
    );
  }
  refuseBetaFields(request);
  if (request.top_k !== undefined) {
    throw new InvalidRequestError(
      'top_k is not supported: most vendors behind this gateway have no equivalent. Use top_p or temperature.',
      { param: 'top_k', code: 'unsupported_parameter' },
    );
  }
  const chat: ChatRequest = {
    model: request.model,
    max_tokens: request.max_tokens,
    messages: [...convertSystem(request.system), ...convertMessageParams(request.messages)],
  };
  if (request.stream === true) {
    chat.stream = true;
    // The last chunk then carries the usage and the cost the ledger debited, which message_delta reports.
    chat.stream_options = { include_usage: true };
  }
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.stop_sequences !== undefined && request.stop_sequences.length > 0) chat.stop = request.stop_sequences;
  // The web_search server tool is run by the gateway (`responses/read-messages-web-search.ts`), never sent to the model as is.
  const tools = (request.tools ?? []).flatMap((tool, index) =>
    isWebSearchTool(tool) ? [] : [convertTool(tool, index)],
  );
  if (tools.length > 0) chat.tools = tools;
  Object.assign(chat, convertToolChoice(request.tool_choice));
  const effort = convertReasoningEffort(request);
  if (effort !== undefined) chat.reasoning_effort = effort;
  const userId = request.metadata?.user_id;
  if (typeof userId === 'string' && userId !== '') chat.user = userId;
  // Top-level `cache_control`: Anthropic's automatic breakpoint on the last cacheable block.
  Object.assign(chat, carryCacheControl(request));
  const format = readOutputFormat(request);
  if (format) {
    chat.response_format = {
      type: 'json_schema',
      json_schema: { name: 'output', schema: format.schema, strict: true },
    };
  }
  return chat;
}

/**
 * Fields of Anthropic betas that would change the answer and that no vendor behind the gateway can honour: refused
 * by name rather than ignored (the `anthropic-beta` header is checked apart, `check-beta-header.ts`; a beta that
 * changes nothing on the wire needs nothing here). `context_management` is left out on purpose: it only lets Anthropic
 * trim old tool results from a long conversation, and sending the whole conversation gives the same answer.
 * @see https://docs.anthropic.com/en/api/beta-headers
 */
const refusedBetaFields = {
  mcp_servers: 'MCP servers run by the API (beta mcp-client) are not supported here; call MCP tools as custom tools.',
  container: 'Code-execution containers (beta code-execution) are not supported here.',
} as const;

function refuseBetaFields(request: MessagesRequest): void {
  for (const [field, reason] of Object.entries(refusedBetaFields)) {
    const value: unknown = request[field];
    const isEmpty = value === undefined || value === null || (Array.isArray(value) && value.length === 0);
    if (!isEmpty) throw new InvalidRequestError(`${field}: ${reason}`, { param: field, code: 'unsupported_parameter' });
  }
}

/** `output_config.format`, or the beta's top-level `output_format`; both at once must agree. */
function readOutputFormat(request: MessagesRequest): NonNullable<MessagesRequest['output_format']> | undefined {
  const configured = request.output_config?.format ?? undefined;
  const beta = request.output_format ?? undefined;
  if (configured && beta && JSON.stringify(configured) !== JSON.stringify(beta)) {
    throw new InvalidRequestError('output_format and output_config.format disagree; send one of them.', {
      param: 'output_format',
    });
  }
  return configured ?? beta;
}

function convertSystem(system: MessagesRequest['system']): ChatRequest['messages'] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ role: 'system', content: system }];
  const parts = system
    .filter((block) => block.text !== '')
    .map((block) => ({ type: 'text' as const, text: block.text, ...carryCacheControl(block) }));
  return parts.length === 0 ? [] : [{ role: 'system', content: parts }];
}

function convertTool(tool: ToolParam, index: number): ChatTool {
  if (tool.type !== undefined && tool.type !== 'custom') {
    throw new InvalidRequestError(
      `Server tools ('${tool.type}') are not supported on /v1/messages (web_search is); define custom tools with an input_schema.`,
      { param: `tools[${index}].type`, code: 'unsupported_parameter' },
    );
  }
  if (tool.input_schema === undefined) {
    throw new InvalidRequestError(`Missing required parameter: 'tools[${index}].input_schema'.`, {
      param: `tools[${index}].input_schema`,
      code: 'missing_required_parameter',
    });
  }
  const definition: ChatTool['function'] = { name: tool.name, parameters: tool.input_schema };
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.strict !== undefined) definition.strict = tool.strict;
  return { type: 'function', function: definition, ...carryCacheControl(tool) };
}

/** @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#forcing-tool-use */
function convertToolChoice(choice: MessagesRequest['tool_choice']): Partial<ChatRequest> {
  if (choice === undefined) return {};
  const parallel =
    choice.type !== 'none' && choice.disable_parallel_tool_use === true ? { parallel_tool_calls: false } : {};
  switch (choice.type) {
    case 'auto':
      return { tool_choice: 'auto', ...parallel };
    case 'any':
      return { tool_choice: 'required', ...parallel };
    case 'tool':
      return { tool_choice: { type: 'function', function: { name: choice.name } }, ...parallel };
    case 'none':
      return { tool_choice: 'none' };
  }
}

/**
 * Anthropic's thinking settings → `reasoning_effort`, the one reasoning control every vendor adapter translates.
 * A thinking budget becomes the level whose budget covers it (up to 2048 tokens `low`, up to 8192 `medium`, above
 * `high`); adaptive thinking takes `output_config.effort`, else Anthropic's default effort, `high`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
function convertReasoningEffort(request: MessagesRequest): ReasoningEffort | undefined {
  const effort = request.output_config?.effort ?? undefined;
  const thinking = request.thinking;
  switch (thinking?.type) {
    case undefined:
      return effort;
    case 'adaptive':
      return effort ?? 'high';
    case 'disabled':
      if (effort !== undefined) {
        throw new InvalidRequestError(
          'output_config.effort sets the reasoning effort here, so it cannot be combined with thinking disabled.',
          { param: 'output_config.effort' },
        );
      }
      return undefined;
    case 'enabled':
      if (thinking.budget_tokens >= request.max_tokens) {
        throw new InvalidRequestError('thinking.budget_tokens must be less than max_tokens.', {
          param: 'thinking.budget_tokens',
        });
      }
      if (thinking.budget_tokens <= 2048) return 'low';
      return thinking.budget_tokens <= 8192 ? 'medium' : 'high';
  }
}
