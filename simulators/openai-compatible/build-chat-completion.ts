import { buildChatAnnotations } from './build-chat-annotations.ts';
import type { ChoiceAnswer, DialectQuirks, StreamContext } from './dialect-quirks.ts';
import { mapChatFinishReason } from './map-chat-finish-reason.ts';

/** The non-streamed `chat.completion` body (docs/reference/openai.md §Chat Completions) with the vendor's extras: one choice per `n`. */
export function buildChatCompletion(context: StreamContext, quirks: DialectQuirks): Record<string, unknown> {
  const completion: Record<string, unknown> = {
    id: context.completionId,
    object: 'chat.completion',
    created: context.createdUnixSeconds,
    model: context.model,
    choices: context.choices.map((choice, index) => ({
      index,
      message: buildMessage(choice, quirks),
      logprobs: null,
      finish_reason: mapChatFinishReason(choice.plan.finishReason, quirks),
    })),
    usage: quirks.formatUsage(context.plan),
  };
  quirks.decorateCompletion(completion, context);
  return completion;
}

function buildMessage(choice: ChoiceAnswer, quirks: DialectQuirks): Record<string, unknown> {
  const { plan } = choice;
  const text = plan.contentTokens.join('');
  const isRefusalField = plan.contentKind === 'refusal' && quirks.hasRefusalField;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: isRefusalField || (text === '' && plan.toolCalls.length > 0) ? null : text,
  };
  if (quirks.hasRefusalField) message['refusal'] = isRefusalField ? text : null;
  if (quirks.reasoningField && plan.reasoningTokens.length > 0) {
    message[quirks.reasoningField] = plan.reasoningTokens.join('');
  }
  if (plan.toolCalls.length > 0) {
    message['tool_calls'] = plan.toolCalls.map((call, index) => ({
      id: choice.toolCallIds[index],
      type: 'function',
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  if (quirks.hasRefusalField || plan.search) message['annotations'] = buildChatAnnotations(plan);
  return message;
}
