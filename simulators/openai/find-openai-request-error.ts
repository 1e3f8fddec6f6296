import { createSimError, type SimError } from '../shared/sim-error.ts';
import type { ChatMessage, ChatRequest } from '../openai-compatible/chat-request-schema.ts';
import { isOpenAiReasoningModel, openAiReasoningFor } from './openai-reasoning.ts';

/**
 * The 400s OpenAI gives for requests other vendors accept: parameters reasoning models refuse, JSON mode without the
 * word "json", and tool messages that do not answer the preceding assistant's tool calls (docs/reference/openai.md §Chat Completions).
 */
export function findOpenAiRequestError(request: ChatRequest): SimError | undefined {
  const isReasoningModel = isOpenAiReasoningModel(request.model);
  if (!isReasoningModel && request.reasoning_effort) {
    return unsupportedParameter(
      'reasoning_effort',
      "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
    );
  }
  if (isReasoningModel && request.max_tokens !== undefined && request.max_tokens !== null) {
    return unsupportedParameter(
      'max_tokens',
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    );
  }
  const temperature = request.temperature;
  const isReasoning = openAiReasoningFor(request.model, request.reasoning_effort) !== undefined;
  if (isReasoning && typeof temperature === 'number' && temperature !== 1) {
    return createSimError(
      400,
      `Unsupported value: 'temperature' does not support ${temperature} with this model. Only the default (1) value is supported.`,
      { param: 'temperature', code: 'unsupported_value' },
    );
  }
  if (
    request.response_format?.type === 'json_object' &&
    !JSON.stringify(request.messages).toLowerCase().includes('json')
  ) {
    return createSimError(
      400,
      "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
      { param: 'messages' },
    );
  }
  return findToolPairingError(request.messages);
}

function unsupportedParameter(param: string, message: string): SimError {
  return createSimError(400, message, { param, code: 'unsupported_parameter' });
}

function findToolPairingError(messages: readonly ChatMessage[]): SimError | undefined {
  let pendingIds: string[] = [];
  let pendingIndex = -1;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (!pendingIds.includes(message.tool_call_id ?? '')) {
        return createSimError(
          400,
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          { param: `messages.[${index}].role` },
        );
      }
      pendingIds = pendingIds.filter((id) => id !== message.tool_call_id);
      continue;
    }
    if (pendingIds.length > 0) return unansweredToolCalls(pendingIndex, pendingIds);
    pendingIds = (message.role === 'assistant' ? (message.tool_calls ?? []) : []).map((call) => call.id);
    pendingIndex = index;
  }
  return pendingIds.length > 0 ? unansweredToolCalls(pendingIndex, pendingIds) : undefined;
}

function unansweredToolCalls(index: number, ids: readonly string[]): SimError {
  return createSimError(
    400,
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(', ')}`,
    { param: `messages.[${index}].role` },
  );
}
