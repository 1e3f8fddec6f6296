import { chatRequestSchema, type ChatRequest } from './chat-request.ts';
import { parseWireRequest } from './parse-request.ts';

/**
 * Checks a Chat Completions request. Most requests are plain: text messages without tool calls and the common
 * sampling fields. Those are checked in place by `isPlainChatRequest`, which accepts only what `chatRequestSchema`
 * accepts and returns unchanged (its objects are loose, so zod's output would be an equal copy), and the body is
 * used as it is. Anything else, valid or not, goes through zod, so every error keeps its message, `param` and code.
 * The in-place check saves zod's copy of the whole body (about 5 KB allocated and a few percent of the CPU per call).
 */
export function parseChatRequest(body: unknown): ChatRequest {
  return isPlainChatRequest(body) ? body : parseWireRequest(chatRequestSchema, body);
}

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isNonEmptyString: Check = (value) => typeof value === 'string' && value.length > 0;
const isBoolean: Check = (value) => typeof value === 'boolean';
const orNull =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const isNumberIn =
  (min: number, max: number): Check =>
  (value) =>
    typeof value === 'number' && value >= min && value <= max;
// zod's `.int()` takes safe integers only.
const isIntegerFrom =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (value) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
const reasoningEfforts: ReadonlySet<unknown> = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Fields a loose schema does not know pass through unchecked; here only when they hold a plain value, so nesting stays
 * within the shapes below and the depth guard of `parseWireRequest` has nothing to refuse.
 */
function isPrimitive(value: unknown): boolean {
  return typeof value !== 'object' || value === null;
}

/** An object whose `checks` all pass for the keys present and whose other keys hold plain values. */
function hasFields(value: unknown, checks: Readonly<Record<string, Check>>, required: readonly string[]): boolean {
  if (!isRecord(value)) return false;
  for (const key of required) if (!Object.hasOwn(value, key)) return false;
  for (const key in value) {
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
    if (check === undefined ? !isPrimitive(value[key]) : !check(value[key])) return false;
  }
  return true;
}

const isTextPart: Check = (value) =>
  hasFields(value, { type: (type) => type === 'text', text: isString }, ['type', 'text']);
const isTextParts =
  (minLength: number): Check =>
  (value) =>
    Array.isArray(value) && value.length >= minLength && value.every(isTextPart);
const isTextContent = (value: unknown) => isString(value) || isTextParts(1)(value);

const messageChecks: Readonly<Record<string, Readonly<Record<string, Check>>>> = {
  system: { role: isString, content: isTextContent, name: isString },
  developer: { role: isString, content: isTextContent, name: isString },
  user: { role: isString, content: isTextContent, name: isString },
  // Tool calls (and the tool messages that answer them) take the schema's path, which checks how they pair up.
  assistant: {
    role: isString,
    content: orNull((value) => isString(value) || isTextParts(0)(value)),
    refusal: orNull(isString),
    name: isString,
    reasoning_content: orNull(isString),
  },
};

const isPlainMessage: Check = (value) => {
  if (!isRecord(value) || typeof value['role'] !== 'string') return false;
  const checks = Object.hasOwn(messageChecks, value['role']) ? messageChecks[value['role']] : undefined;
  const required = value['role'] === 'assistant' ? ['role'] : ['role', 'content'];
  return checks !== undefined && hasFields(value, checks, required);
};

/** The schema's fields a plain request may have, with the same rules; the others (tools, formats) take zod's path. */
const requestChecks: Readonly<Record<string, Check>> = {
  model: isNonEmptyString,
  messages: (value) => Array.isArray(value) && value.length > 0 && value.every(isPlainMessage),
  stream: orNull(isBoolean),
  stream_options: orNull((value) => hasFields(value, { include_usage: isBoolean }, [])),
  max_tokens: orNull(isIntegerFrom(1)),
  max_completion_tokens: orNull(isIntegerFrom(1)),
  temperature: orNull(isNumberIn(0, 2)),
  top_p: orNull(isNumberIn(0, 1)),
  n: orNull(isIntegerFrom(1, 128)),
  stop: orNull((value) => isString(value) || (Array.isArray(value) && value.length <= 4 && isTextArray(value))),
  seed: orNull(isIntegerFrom(Number.MIN_SAFE_INTEGER)),
  presence_penalty: orNull(isNumberIn(-2, 2)),
  frequency_penalty: orNull(isNumberIn(-2, 2)),
  parallel_tool_calls: isBoolean,
  reasoning_effort: orNull((value) => reasoningEfforts.has(value)),
  user: isString,
};

function isTextArray(value: readonly unknown[]): boolean {
  return value.length > 0 && value.every(isString);
}

/** Known to the schema but not checked in place: their presence sends the request through zod. */
const schemaOnlyFields: ReadonlySet<string> = new Set(
  Object.keys(chatRequestSchema.shape).filter((key) => !Object.hasOwn(requestChecks, key)),
);

/** True only for a request `chatRequestSchema` accepts and would return equal to itself. */
export function isPlainChatRequest(body: unknown): body is ChatRequest {
  if (!isRecord(body)) return false;
  for (const key in body) {
    // `web_search_options` is refused by the schema's refinement, with its own message.
    if (schemaOnlyFields.has(key) || key === 'web_search_options') return false;
  }
  return hasFields(body, requestChecks, ['model', 'messages']);
}
