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
import { isOpenAiReasoningModel, openAiReasoningFor } from './openai-reasoning.ts';
import type { ResponsesInputItem, ResponsesRequest } from './responses-request-schema.ts';

const webSearchToolTypes = [
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
];

/** A schema-valid Responses request → Conversation, or the 400 OpenAI answers (docs/reference/openai.md §Responses). */
export function convertResponsesRequest(
  request: ResponsesRequest,
  input: { isKnownResponseId: (id: string) => boolean },
): Conversation | SimError {
  const error = findRequestError(request, input.isKnownResponseId);
  if (error) return error;
  const items: ResponsesInputItem[] =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : (request.input ?? []);
  const tools = (request.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && tool.name !== undefined ? [{ name: tool.name, parametersSchema: tool.parameters }] : [],
  );
  const units: InputUnit[] = [];
  if (request.tools && request.tools.length > 0)
    units.push({ text: JSON.stringify(request.tools), imageCount: 0, isMessage: false });
  if (request.instructions) units.push({ text: request.instructions, imageCount: 0, isMessage: true });
  units.push(...items.map(convertItemUnit));
  const lastUser = [...items]
    .reverse()
    .find((item) => isMessage(item) && item.role === 'user' && itemText(item) !== '');
  return {
    model: request.model,
    units,
    lastTurn: findLastTurn(items),
    toolRoundsInTurn: countToolRounds(items.map(turnKind)),
    lastUserText: lastUser ? itemText(lastUser) : '',
    tools,
    toolChoice: convertToolChoice(request, tools.length > 0),
    canCallToolsInParallel: request.parallel_tool_calls ?? true,
    hasWebSearch: (request.tools ?? []).some((tool) => webSearchToolTypes.includes(tool.type)),
    maxOutputTokens: request.max_output_tokens ?? undefined,
    reasoning: openAiReasoningFor(request.model, request.reasoning?.effort),
    outputFormat: convertFormat(request),
    stopSequences: [],
  };
}

function findRequestError(request: ResponsesRequest, isKnownResponseId: (id: string) => boolean): SimError | undefined {
  const maxOutputTokens = request.max_output_tokens;
  if (maxOutputTokens !== undefined && maxOutputTokens !== null && maxOutputTokens < 16) {
    return createSimError(
      400,
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${maxOutputTokens} instead.`,
      { param: 'max_output_tokens', code: 'integer_below_min_value' },
    );
  }
  if (request.reasoning?.effort && !isOpenAiReasoningModel(request.model)) {
    return createSimError(400, "Unsupported parameter: 'reasoning.effort' is not supported with this model.", {
      param: 'reasoning.effort',
      code: 'unsupported_parameter',
    });
  }
  const format = request.text?.format;
  if (format?.type === 'json_schema' && format.name === undefined) {
    return createSimError(400, "Missing required parameter: 'text.format.name'.", {
      param: 'text.format.name',
      code: 'missing_required_parameter',
    });
  }
  const previousId = request.previous_response_id;
  if (previousId) {
    return isKnownResponseId(previousId)
      ? undefined
      : createSimError(400, `Previous response with id '${previousId}' not found.`, {
          param: 'previous_response_id',
          code: 'previous_response_not_found',
        });
  }
  return findOrphanToolOutput(typeof request.input === 'string' ? [] : (request.input ?? []));
}

/** Without `previous_response_id`, every function_call_output must answer a function_call in the same input. */
function findOrphanToolOutput(items: readonly ResponsesInputItem[]): SimError | undefined {
  const callIds = new Set(items.filter((item) => item.type === 'function_call').map((item) => item.call_id));
  const orphan = items.find((item) => item.type === 'function_call_output' && !callIds.has(item.call_id));
  return orphan
    ? createSimError(400, `No tool call found for function call output with call_id ${orphan.call_id ?? ''}.`, {
        param: 'input',
      })
    : undefined;
}

function isMessage(item: ResponsesInputItem): boolean {
  return item.type === undefined || item.type === 'message';
}

function itemText(item: ResponsesInputItem): string {
  const content = item.content ?? '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => part.text ?? part.refusal ?? '')
    .filter(Boolean)
    .join('\n');
}

function convertItemUnit(item: ResponsesInputItem): InputUnit {
  const parts = Array.isArray(item.content) ? item.content : [];
  let text = itemText(item);
  if (item.type === 'function_call') text = `${item.name ?? ''} ${item.arguments ?? ''}`;
  if (item.type === 'function_call_output') {
    text =
      typeof item.output === 'string' ? item.output : (item.output ?? []).map((part) => part.text ?? '').join('\n');
  }
  if (item.type === 'reasoning') text = (item.summary ?? []).map((part) => part.text ?? '').join('\n');
  return { text, imageCount: parts.filter((part) => part.type === 'input_image').length, isMessage: true };
}

/** System and developer messages are instructions, not turns: a model answers the turn before them. */
function findLastTurn(items: readonly ResponsesInputItem[]): LastTurn {
  const last = items.findLast((item) => !isInstruction(item));
  if (!last) return 'user';
  if (last.type === 'function_call_output') return 'tool-result';
  if (isMessage(last) && last.role !== 'assistant') return 'user';
  return 'assistant';
}

function isInstruction(item: ResponsesInputItem): boolean {
  return isMessage(item) && (item.role === 'system' || item.role === 'developer');
}

function turnKind(item: ResponsesInputItem): TurnKind {
  if (item.type === 'function_call') return 'tool-call';
  if (isInstruction(item)) return 'other';
  return isMessage(item) && item.role !== 'assistant' ? 'user' : 'other';
}

function convertToolChoice(request: ResponsesRequest, hasFunctionTools: boolean): ToolChoice {
  const choice = request.tool_choice;
  if (choice === undefined || choice === null) return { kind: hasFunctionTools ? 'auto' : 'none' };
  if (typeof choice === 'string') {
    if (choice === 'required') return { kind: 'required' };
    return choice === 'none' ? { kind: 'none' } : { kind: 'auto' };
  }
  if (choice.type === 'function' && choice.name !== undefined) return { kind: 'named', name: choice.name };
  if (choice.type === 'allowed_tools') {
    const first = choice.tools?.find((tool) => tool.type === 'function')?.name;
    return first === undefined ? { kind: 'none' } : { kind: 'named', name: first };
  }
  // A hosted tool (web search, file search) was forced: no function call.
  return { kind: 'none' };
}

function convertFormat(request: ResponsesRequest): OutputFormat {
  const format = request.text?.format;
  if (format?.type === 'json_schema') return { kind: 'json', schema: format.schema };
  if (format?.type === 'json_object') return { kind: 'json', schema: undefined };
  return { kind: 'text' };
}
