import type { ChatCompletion, FinishReason, ToolCall } from '../../openai-api/chat-completion.ts';
import { UpstreamFailureError } from '../provider-adapter.ts';
import { createCompletion, type CompletionChoice } from '../shared/create-completion.ts';
import { parseVendorBody } from '../shared/parse-vendor-body.ts';
import { deriveToolCallId } from '../shared/tool-call-id.ts';
import { convertLogprobs, readReasoning } from './convert-message-parts.ts';
import type { DialectQuirks } from './dialect-quirks.ts';
import { convertMidStreamError, isErrorEvent } from './errors.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { openAiCompletionSchema, type OpenAiCompletion } from './openai-api.ts';

type OpenAiChoice = OpenAiCompletion['choices'][number];

/**
 * An OpenAI-dialect response body → ChatCompletion with the requested model, our id and `created`. Vendor extras
 * are dropped except reasoning text (as `reasoning_content`). A body that is an error object despite the 2xx status
 * (some routers do this) is handled as that error.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function convertResponse(input: {
  body: unknown;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
  quirks: DialectQuirks;
}): ChatCompletion {
  if (isErrorEvent(input.body, input.quirks)) throw convertMidStreamError(input.body, input.quirks);
  const completion = parseVendorBody(openAiCompletionSchema, input.body, input.quirks.vendorName);
  const choices = completion.choices.map((choice, position) => convertChoice(choice, position, input));
  return createCompletion({
    id: input.id,
    created: input.createdUnixSeconds,
    model: input.requestedModel,
    choices,
    usage: completion.usage ? input.quirks.convertUsage(completion.usage) : undefined,
    systemFingerprint: completion.system_fingerprint ?? undefined,
  });
}

function convertChoice(
  choice: OpenAiChoice,
  position: number,
  context: { id: string; quirks: DialectQuirks },
): CompletionChoice {
  const index = choice.index ?? position;
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call, callIndex) => ({
    id: call.id ?? deriveToolCallId([context.id, index, callIndex]),
    type: 'function',
    function: { name: call.function.name ?? '', arguments: call.function.arguments ?? '' },
  }));
  return {
    index,
    text: choice.message.content ?? '',
    refusal: choice.message.refusal ?? undefined,
    reasoning: readReasoning(choice.message, context.quirks),
    toolCalls,
    logprobs: convertLogprobs(choice.logprobs),
    finishReason: finishChoice(choice.finish_reason, toolCalls.length > 0, context.quirks),
  };
}

/** Some dialect servers answer a tool call with `stop`; OpenAI clients look for `tool_calls`. */
export function finishChoice(
  value: string | null | undefined,
  hasToolCalls: boolean,
  quirks: DialectQuirks,
): FinishReason {
  const reason = mapFinishReason(value, quirks) ?? 'stop';
  if (reason === 'error') {
    throw new UpstreamFailureError({
      kind: 'retryable',
      status: 502,
      message: `The upstream provider (${quirks.vendorName}) failed while writing the answer.`,
      vendorCode: 'finish_reason_error',
    });
  }
  return reason === 'stop' && hasToolCalls ? 'tool_calls' : reason;
}
