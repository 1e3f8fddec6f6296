import type { Usage } from '../../openai-api/chat-completion.ts';
import type { RelayedCompletion } from '../provider-adapter.ts';
import { indexJsonFields, spliceJsonFields } from '../shared/json-field-index.ts';
import type { DialectQuirks } from './dialect-quirks.ts';
import { isErrorEvent } from './errors.ts';
import { openAiUsageSchema } from './openai-api.ts';

const openAiFinishReasons: ReadonlySet<unknown> = new Set(['stop', 'length', 'tool_calls', 'content_filter']);

/**
 * An OpenAI answer the gateway can forward as sent: one whose every field `convertResponse` reads is already in the
 * form it would produce (an index per choice, text or a tool call, one of OpenAI's finish reasons, tool calls with
 * their ids, no log probabilities, usage of numbers), so the only changes are the replaced `id`, `created`, `model`
 * and `usage`. Anything else (an error body, a missing field, a tool call answered with `stop`) returns undefined
 * and goes through `convertResponse`, which normalises it or refuses it as before; so do answers with annotations
 * (citations, which chat completions do not carry). Fields the gateway does not read (`service_tier`, a message's
 * empty `annotations`) reach the client as OpenAI sent them.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function relayOpenAiResponse(
  input: { text: string; body: unknown; requestedModel: string; createdUnixSeconds: number; id: string },
  quirks: DialectQuirks,
): RelayedCompletion | undefined {
  const { body } = input;
  if (!isRecord(body) || body['object'] !== 'chat.completion' || isErrorEvent(body, quirks)) return undefined;
  const textBytes = measureChoices(body['choices']);
  if (textBytes === undefined) return undefined;
  const usage = readUsage(body['usage'], quirks);
  if (usage === null) return undefined;
  const index = indexJsonFields(input.text);
  if (index === undefined) return undefined;
  const identity = {
    id: JSON.stringify(input.id),
    created: String(input.createdUnixSeconds),
    model: JSON.stringify(input.requestedModel),
  };
  return {
    usage,
    textBytes,
    render: (billedUsage) => spliceJsonFields(index, { ...identity, usage: JSON.stringify(billedUsage) }),
  };
}

/** The answer text's UTF-8 size over all choices, or undefined when a choice is not in converted form. */
function measureChoices(choices: unknown): number | undefined {
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  let textBytes = 0;
  for (const [position, choice] of choices.entries()) {
    if (!isRecord(choice) || choice['index'] !== position || !openAiFinishReasons.has(choice['finish_reason'])) {
      return undefined;
    }
    if (choice['logprobs'] !== undefined && choice['logprobs'] !== null) return undefined;
    const messageBytes = measureMessage(choice['message'], choice['finish_reason']);
    if (messageBytes === undefined) return undefined;
    textBytes += messageBytes;
  }
  return textBytes;
}

function measureMessage(message: unknown, finishReason: unknown): number | undefined {
  if (!isRecord(message) || message['role'] !== 'assistant') return undefined;
  const { content, refusal } = message;
  const toolCalls = message['tool_calls'] ?? [];
  if (!Array.isArray(toolCalls)) return undefined;
  // `convertResponse` writes `null` content only beside tool calls, and `tool_calls` as the reason for them.
  const hasToolCalls = toolCalls.length > 0;
  if (!(typeof content === 'string' || (content === null && hasToolCalls))) return undefined;
  if (hasToolCalls && finishReason === 'stop') return undefined;
  if (!(refusal === undefined || refusal === null || typeof refusal === 'string')) return undefined;
  // Chat completions carry no citations (a search model's `url_citation`s): `convertResponse` drops them.
  if (!(message['annotations'] === undefined || isEmptyArray(message['annotations']))) return undefined;
  let text = content ?? '';
  for (const call of toolCalls) {
    if (!isRecord(call) || typeof call['id'] !== 'string' || call['type'] !== 'function') return undefined;
    const called = call['function'];
    if (!isRecord(called) || typeof called['name'] !== 'string' || typeof called['arguments'] !== 'string') {
      return undefined;
    }
    text += called['name'] + called['arguments'];
  }
  return Buffer.byteLength(text);
}

/** The usage as `convertResponse` reads it; undefined when absent, null when it is not usage. */
function readUsage(usage: unknown, quirks: DialectQuirks): Usage | undefined | null {
  if (usage === undefined || usage === null) return undefined;
  const parsed = openAiUsageSchema.safeParse(usage);
  return parsed.success ? quirks.convertUsage(parsed.data) : null;
}

function isEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
