import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import type { SseEvent } from '../provider-adapter.ts';
import type { ChunkBuilder } from '../shared/chunk-builder.ts';
import { indexJsonFields, spliceJsonFields } from '../shared/json-field-index.ts';

/** The gateway's `id`, `created` and `model`, each already written as JSON, spliced into every relayed chunk. */
export type ChunkIdentityJson = { id: string; created: string; model: string };

/** A chunk forwarded as the vendor wrote it: the parsed chunk (for the relay's accounting) and the text to send. */
export type RelayedChunk = { chunk: ChatChunk; json: string; isFinishing: boolean };

const relayedFinishReasons: ReadonlySet<unknown> = new Set(['stop', 'length', 'content_filter']);
const relayedDeltaKeys: ReadonlySet<string> = new Set(['role', 'content', 'refusal']);

/**
 * An OpenAI stream chunk the gateway can forward as sent, with only `id`, `created` and `model` replaced: one text
 * (or refusal) delta of one choice, or that choice's finish, in exactly the form the chunk builder would give it
 * (`role` on the choice's first delta only, nothing after its finish, usage absent or null). Everything else (tool
 * calls, reasoning, log probabilities, several choices in one chunk, the usage chunk, a vendor error) returns
 * undefined and goes through the converter, which keeps the builder's invariants; `noteRelayed` keeps the builder's
 * view of each choice in step, so the two kinds mix in one stream.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
export function relayOpenAiChunk(
  event: SseEvent,
  builder: ChunkBuilder,
  identity: ChunkIdentityJson,
): RelayedChunk | undefined {
  const { data, text } = event;
  if (text === undefined || event.event !== undefined || !isRecord(data)) return undefined;
  if (data['object'] !== 'chat.completion.chunk' || !(data['usage'] === undefined || data['usage'] === null)) {
    return undefined;
  }
  const choices = data['choices'];
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  const isFinishing = readRelayableChoice(choice, builder);
  if (isFinishing === undefined || !isRecord(choice)) return undefined;
  const index = indexJsonFields(text);
  if (index === undefined) return undefined;
  builder.noteRelayed(choice['index'] as number, isFinishing);
  // Usage comes once, after settlement and with the cost; OpenAI's `"usage": null` on every chunk is left out.
  const json = spliceJsonFields(index, { ...identity, usage: undefined });
  return { chunk: data as ChatChunk, json, isFinishing };
}

/** Whether the choice finishes (true), carries text (false), or must be converted (undefined). */
function readRelayableChoice(choice: unknown, builder: ChunkBuilder): boolean | undefined {
  if (!isRecord(choice)) return undefined;
  const choiceIndex = choice['index'];
  if (typeof choiceIndex !== 'number' || !Number.isInteger(choiceIndex) || choiceIndex < 0) return undefined;
  if (!(choice['logprobs'] === undefined || choice['logprobs'] === null)) return undefined;
  const delta = choice['delta'];
  if (!isRecord(delta) || Object.keys(delta).some((key) => !relayedDeltaKeys.has(key))) return undefined;
  const { role, content, refusal } = delta;
  if (!isOptionalText(content) || !isOptionalText(refusal)) return undefined;
  if (builder.isFinished(choiceIndex) || builder.hasToolCalls(choiceIndex)) return undefined;
  // The builder puts `role` on a choice's first delta and nowhere else.
  if (role === undefined ? !builder.hasRole(choiceIndex) : role !== 'assistant' || builder.hasRole(choiceIndex)) {
    return undefined;
  }
  const finishReason = choice['finish_reason'];
  if (finishReason === undefined || finishReason === null) return false;
  // The builder sends a finish as its own chunk with an empty delta.
  if (!relayedFinishReasons.has(finishReason) || role !== undefined || content || refusal) return undefined;
  return true;
}

function isOptionalText(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
