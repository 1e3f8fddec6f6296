import {
  countToolRounds,
  type Conversation,
  type InputUnit,
  type LastTurn,
  type OutputFormat,
  type ToolChoice,
  type TurnKind,
} from '../shared/conversation.ts';
import { createSimError, type SimError } from '../shared/sim-error.ts';
import type { ChatMessage, ChatRequest } from './chat-request-schema.ts';
import type { DialectQuirks } from './dialect-quirks.ts';

/** A schema-valid chat request → the vendor-neutral Conversation, or the 400 the vendor would answer. */
export function convertChatRequest(request: ChatRequest, quirks: DialectQuirks): Conversation | SimError {
  const messageError = findMessageError(request.messages);
  if (messageError) return messageError;
  const tools = (request.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && tool.function
      ? [{ name: tool.function.name, parametersSchema: tool.function.parameters }]
      : [],
  );
  const toolChoice = convertToolChoice(request);
  if (toolChoice.kind === 'named' && !tools.some((tool) => tool.name === toolChoice.name)) {
    return createSimError(
      400,
      `Invalid value for 'tool_choice': no function named '${toolChoice.name}' was specified in 'tools'.`,
      {
        param: 'tool_choice',
        code: 'invalid_value',
      },
    );
  }
  const toolsUnit: InputUnit[] =
    request.tools && request.tools.length > 0
      ? [{ text: JSON.stringify(request.tools), imageCount: 0, isMessage: false }]
      : [];
  const stop = request.stop ?? [];
  return {
    model: request.model,
    units: [...toolsUnit, ...request.messages.map(convertMessageUnit)],
    lastTurn: findLastTurn(request.messages),
    toolRoundsInTurn: countToolRounds(request.messages.map(turnKind)),
    lastUserText:
      [...request.messages]
        .reverse()
        .map(userText)
        .find((text) => text !== '') ?? '',
    tools,
    toolChoice,
    canCallToolsInParallel: request.parallel_tool_calls ?? true,
    hasWebSearch: request.web_search_options !== undefined && request.web_search_options !== null,
    maxOutputTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    reasoning: quirks.reasoningFor(request),
    outputFormat: convertResponseFormat(request),
    stopSequences: typeof stop === 'string' ? [stop] : stop,
  };
}

function findMessageError(messages: readonly ChatMessage[]): SimError | undefined {
  for (const [index, message] of messages.entries()) {
    const hasContent = message.content !== undefined && message.content !== null;
    if (message.role === 'assistant' && !hasContent && !message.tool_calls?.length && !message.refusal) {
      return missing(`messages[${index}].content`);
    }
    if (message.role !== 'assistant' && !hasContent) return missing(`messages[${index}].content`);
    if (message.role === 'tool' && message.tool_call_id === undefined)
      return missing(`messages[${index}].tool_call_id`);
  }
  return undefined;
}

function missing(param: string): SimError {
  return createSimError(400, `Missing required parameter: '${param}'.`, { param, code: 'missing_required_parameter' });
}

function convertMessageUnit(message: ChatMessage): InputUnit {
  const parts = typeof message.content === 'string' ? [] : (message.content ?? []);
  const texts =
    typeof message.content === 'string' ? [message.content] : parts.map((part) => part.text ?? part.refusal ?? '');
  for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
  if (message.refusal) texts.push(message.refusal);
  return {
    text: texts.filter(Boolean).join('\n'),
    imageCount: parts.filter((part) => part.type === 'image_url').length,
    isMessage: true,
  };
}

function userText(message: ChatMessage): string {
  if (message.role !== 'user') return '';
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => part.text ?? '').join('\n');
}

/** System and developer messages are instructions, not turns: a model answers the turn before them. */
function findLastTurn(messages: readonly ChatMessage[]): LastTurn {
  const role = messages.findLast((message) => message.role !== 'system' && message.role !== 'developer')?.role;
  if (role === 'tool' || role === 'function') return 'tool-result';
  return role === 'assistant' ? 'assistant' : 'user';
}

function turnKind(message: ChatMessage): TurnKind {
  if (message.role === 'system' || message.role === 'developer') return 'other';
  if (message.role === 'assistant') return message.tool_calls?.length ? 'tool-call' : 'other';
  return message.role === 'tool' || message.role === 'function' ? 'other' : 'user';
}

function convertToolChoice(request: ChatRequest): ToolChoice {
  const choice = request.tool_choice;
  if (choice === undefined || choice === null) return { kind: request.tools?.length ? 'auto' : 'none' };
  if (typeof choice === 'string') {
    if (choice === 'required' || choice === 'any') return { kind: 'required' };
    return choice === 'none' ? { kind: 'none' } : { kind: 'auto' };
  }
  if (choice.function) return { kind: 'named', name: choice.function.name };
  if (choice.allowed_tools) {
    const first = choice.allowed_tools.tools[0]?.function?.name;
    // The simulated model calls the first allowed tool, so the call is valid in both modes.
    return first === undefined ? { kind: 'none' } : { kind: 'named', name: first };
  }
  return { kind: 'auto' };
}

function convertResponseFormat(request: ChatRequest): OutputFormat {
  const format = request.response_format;
  if (format?.type === 'json_schema') return { kind: 'json', schema: format.json_schema?.schema };
  if (format?.type === 'json_object') return { kind: 'json', schema: undefined };
  return { kind: 'text' };
}
