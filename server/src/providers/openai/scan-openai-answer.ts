import { JsonTextCursor } from '../shared/json-text-cursor.ts';

/** The top-level fields the relay replaces, in the order `spliceJsonFields` adds missing ones. */
export const replacedFields = ['id', 'created', 'model', 'usage'] as const;

/** Where one replaced field's value sits: `text.slice(start, end)`; `field` indexes `replacedFields`. */
export type ReplacedSpan = { field: number; start: number; end: number };

/** What the relay needs of an OpenAI answer that is already in the form `convertResponse` would give it. */
export type ScannedOpenAiAnswer = {
  text: string;
  /** The replaced fields present, in text order. */
  spans: ReplacedSpan[];
  /** The position of the closing brace, where missing fields are added; and whether any field precedes it. */
  closeAt: number;
  hasFields: boolean;
  /** The answer text's UTF-8 size over all choices (content and tool calls), for the estimate without usage. */
  textBytes: number;
  /** The JSON text of `usage`; undefined when it is absent or null. */
  usageText: string | undefined;
};

const topLevelKeys = ['id', 'created', 'model', 'usage', 'object', 'choices', 'error'] as const;
const choiceKeys = ['index', 'finish_reason', 'logprobs', 'message'] as const;
const messageKeys = ['role', 'content', 'refusal', 'tool_calls', 'annotations'] as const;
const toolCallKeys = ['id', 'type', 'function'] as const;
const functionKeys = ['name', 'arguments'] as const;
const finishReasons = ['"stop"', '"length"', '"tool_calls"', '"content_filter"'] as const;

/**
 * Reads an OpenAI chat completion's text in one pass, checking its JSON syntax as `JSON.parse` would but building no
 * object: each choice has its position as `index`, one of OpenAI's finish reasons, no log probabilities, and an
 * assistant message with text content (or `null` beside tool calls), an optional string refusal, no annotations,
 * and tool calls with an id, the type `function`, a name and arguments; a tool call never ends with `stop`.
 * Undefined for anything else, and for what the scan declines (an `error` field, a key it reads written twice or
 * with escapes, a value it compares written with escapes, a lone surrogate in measured text, malformed JSON): the
 * caller then parses the answer and converts it. A key the scan reads written twice is declined because
 * `JSON.parse` keeps the last one; keys it only skips are forwarded as written either way.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function scanOpenAiAnswer(text: string): ScannedOpenAiAnswer | undefined {
  const cursor = new JsonTextCursor(text);
  const spans: ReplacedSpan[] = [];
  let seen = 0;
  let isCompletion = false;
  let textBytes: number | undefined;
  let hasFields = false;
  for (let isFirst = true; cursor.nextField(isFirst); isFirst = false) {
    hasFields = true;
    const known = keyPosition(cursor, topLevelKeys);
    if (isSeen(seen, known)) return undefined;
    seen |= bitOf(known);
    const start = cursor.at;
    const key = known < 0 ? undefined : topLevelKeys[known];
    if (key === 'error') return undefined;
    if (key === 'object') isCompletion = cursor.takeString('"chat.completion"');
    else if (key === 'choices') textBytes = measureChoices(cursor);
    else if (!cursor.skipValue()) return undefined;
    if (isReplaced(known)) spans.push({ field: known, start, end: cursor.at });
    if ((key === 'object' && !isCompletion) || (key === 'choices' && textBytes === undefined)) return undefined;
  }
  const closeAt = cursor.at - 1;
  if (cursor.failed || !cursor.isAtEnd() || !isCompletion || textBytes === undefined) return undefined;
  const usage = spans.find((span) => topLevelKeys[span.field] === 'usage');
  const usageText = usage === undefined ? undefined : text.slice(usage.start, usage.end);
  const present = usageText === 'null' ? undefined : usageText;
  return { text, spans, closeAt, hasFields, textBytes, usageText: present };
}

function isReplaced(position: number): boolean {
  return position >= 0 && position < replacedFields.length;
}

function measureChoices(cursor: JsonTextCursor): number | undefined {
  let textBytes = 0;
  let position = 0;
  for (let isFirst = true; cursor.nextItem(isFirst); isFirst = false) {
    const choiceBytes = measureChoice(cursor, position);
    if (choiceBytes === undefined) return undefined;
    textBytes += choiceBytes;
    position++;
  }
  return cursor.failed || position === 0 ? undefined : textBytes;
}

type MessageMeasure = { textBytes: number; hasToolCalls: boolean };

/** The text size of the choice at `position`, or undefined when it is not in converted form. */
function measureChoice(cursor: JsonTextCursor, position: number): number | undefined {
  let seen = 0;
  let hasIndex = false;
  let finishReason: (typeof finishReasons)[number] | undefined;
  let message: MessageMeasure | undefined;
  for (let isFirst = true; cursor.nextField(isFirst); isFirst = false) {
    const known = keyPosition(cursor, choiceKeys);
    if (isSeen(seen, known)) return undefined;
    seen |= bitOf(known);
    const key = known < 0 ? undefined : choiceKeys[known];
    if (key === 'index') {
      hasIndex = readNumberValue(cursor) === position;
      if (!hasIndex) return undefined;
    } else if (key === 'finish_reason') {
      finishReason = takeFinishReason(cursor);
      if (finishReason === undefined) return undefined;
    } else if (key === 'logprobs') {
      if (!cursor.readLiteral('null')) return undefined;
    } else if (key === 'message') {
      message = measureMessage(cursor);
      if (message === undefined) return undefined;
    } else if (!cursor.skipValue()) return undefined;
  }
  if (cursor.failed || !hasIndex || message === undefined || finishReason === undefined) return undefined;
  // `convertResponse` gives `tool_calls` as the reason for tool calls.
  return message.hasToolCalls && finishReason === '"stop"' ? undefined : message.textBytes;
}

function measureMessage(cursor: JsonTextCursor): MessageMeasure | undefined {
  let seen = 0;
  let isAssistant = false;
  let content: 'text' | 'null' | undefined;
  let textBytes = 0;
  let toolCallCount = 0;
  for (let isFirst = true; cursor.nextField(isFirst); isFirst = false) {
    const known = keyPosition(cursor, messageKeys);
    if (isSeen(seen, known)) return undefined;
    seen |= bitOf(known);
    const key = known < 0 ? undefined : messageKeys[known];
    if (key === 'role') {
      isAssistant = cursor.takeString('"assistant"');
      if (!isAssistant) return undefined;
    } else if (key === 'content') {
      content = cursor.readLiteral('null') ? 'null' : readMeasuredString(cursor) ? 'text' : undefined;
      if (content === undefined) return undefined;
      if (content === 'text') textBytes += cursor.stringBytes();
    } else if (key === 'refusal') {
      if (!cursor.readLiteral('null') && !cursor.readString()) return undefined;
    } else if (key === 'tool_calls') {
      const calls = cursor.readLiteral('null') ? { count: 0, textBytes: 0 } : measureToolCalls(cursor);
      if (calls === undefined) return undefined;
      toolCallCount = calls.count;
      textBytes += calls.textBytes;
    } else if (key === 'annotations') {
      // Chat completions carry no citations (a search model's `url_citation`s): `convertResponse` drops them.
      if (cursor.nextItem(true) || cursor.failed) return undefined;
    } else if (!cursor.skipValue()) return undefined;
  }
  const hasToolCalls = toolCallCount > 0;
  // `convertResponse` writes `null` content only beside tool calls.
  if (cursor.failed || !isAssistant || !(content === 'text' || (content === 'null' && hasToolCalls))) {
    return undefined;
  }
  return { textBytes, hasToolCalls };
}

function measureToolCalls(cursor: JsonTextCursor): { count: number; textBytes: number } | undefined {
  let count = 0;
  let textBytes = 0;
  for (let isFirst = true; cursor.nextItem(isFirst); isFirst = false) {
    const callBytes = measureToolCall(cursor);
    if (callBytes === undefined) return undefined;
    textBytes += callBytes;
    count++;
  }
  return cursor.failed ? undefined : { count, textBytes };
}

/** A function call's name and arguments size, or undefined when it lacks its id, type or function. */
function measureToolCall(cursor: JsonTextCursor): number | undefined {
  let seen = 0;
  let textBytes: number | undefined;
  for (let isFirst = true; cursor.nextField(isFirst); isFirst = false) {
    const known = keyPosition(cursor, toolCallKeys);
    if (isSeen(seen, known)) return undefined;
    seen |= bitOf(known);
    const key = known < 0 ? undefined : toolCallKeys[known];
    if (key === 'id') {
      if (!cursor.readString()) return undefined;
    } else if (key === 'type') {
      if (!cursor.takeString('"function"')) return undefined;
    } else if (key === 'function') {
      textBytes = measureFunction(cursor);
      if (textBytes === undefined) return undefined;
    } else if (!cursor.skipValue()) return undefined;
  }
  const hasIdAndType = (seen & 0b11) === 0b11;
  return cursor.failed || !hasIdAndType ? undefined : textBytes;
}

function measureFunction(cursor: JsonTextCursor): number | undefined {
  let seen = 0;
  let textBytes = 0;
  for (let isFirst = true; cursor.nextField(isFirst); isFirst = false) {
    const known = keyPosition(cursor, functionKeys);
    if (isSeen(seen, known)) return undefined;
    seen |= bitOf(known);
    if (known >= 0) {
      if (!readMeasuredString(cursor)) return undefined;
      textBytes += cursor.stringBytes();
    } else if (!cursor.skipValue()) return undefined;
  }
  return cursor.failed || seen !== 0b11 ? undefined : textBytes;
}

/** The position of the key just read in `keys`, or -1 (a key the scan only skips). */
function keyPosition(cursor: JsonTextCursor, keys: readonly string[]): number {
  for (let position = 0; position < keys.length; position++) {
    if (cursor.isKey(keys[position] ?? '')) return position;
  }
  return -1;
}

/** Keys the scan reads, one bit each, to find one written twice. */
function bitOf(position: number): number {
  return position < 0 ? 0 : 1 << position;
}

function isSeen(seen: number, position: number): boolean {
  return (seen & bitOf(position)) !== 0;
}

function takeFinishReason(cursor: JsonTextCursor): (typeof finishReasons)[number] | undefined {
  for (const reason of finishReasons) if (cursor.takeString(reason)) return reason;
  return undefined;
}

/**
 * A string whose size adds exactly to others': `Buffer.byteLength` counts half a surrogate pair as a replacement
 * character, but two strings joined (as `convertResponse` measures them) may make a pair of two halves.
 */
function readMeasuredString(cursor: JsonTextCursor): boolean {
  return cursor.readString() && !cursor.hasLoneSurrogate;
}

/** The number at the cursor (`Number` of its text, as `JSON.parse` reads it), or undefined for another value. */
function readNumberValue(cursor: JsonTextCursor): number | undefined {
  const code = cursor.peek();
  const start = cursor.at;
  if (!(code === 0x2d || (code >= 0x30 && code <= 0x39)) || !cursor.readNumber()) return undefined;
  return Number(cursor.text.slice(start, cursor.at));
}
