import type { z } from 'zod';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';

/**
 * Checks a wire request against its schema. The first problem becomes a 400 whose `param` names the field in
 * OpenAI's style (`messages[0].content`), and whose code says whether it was missing or wrong.
 */
export function parseWireRequest<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError('The request body must be a JSON object.', { code: 'invalid_json' });
  }
  const tooDeepField = findTooDeepField(body);
  if (tooDeepField !== undefined) {
    const message = `Invalid value for '${tooDeepField}': nested deeper than ${maxNestingDepth} levels.`;
    throw new InvalidRequestError(message, { param: tooDeepField });
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    // Only strict schemas (images) refuse unknown fields; the issue's path is the object's, so add the key's name.
    const unknownParam = formatParam([...issue.path, issue.keys[0] ?? '']);
    throw new InvalidRequestError(`Unknown parameter: '${unknownParam}'.`, {
      param: unknownParam,
      code: 'unknown_parameter',
    });
  }
  const param = formatParam(issue?.path ?? []);
  const isMissing = issue !== undefined && issue.path.length > 0 && valueAt(body, issue.path) === undefined;
  const detail = issue?.message ?? 'invalid value';
  throw new InvalidRequestError(
    isMissing ? `Missing required parameter: '${param}'.` : `Invalid value for '${param}': ${detail}.`,
    { param: param || null, code: isMissing ? 'missing_required_parameter' : 'invalid_value' },
  );
}

/**
 * JSON nests far deeper than any real request needs (a strict JSON schema allows 10 levels); refusing more keeps
 * recursive code further on (schema checks, serialising the upstream body) from running out of stack.
 */
const maxNestingDepth = 128;

/** The top-level field whose value nests deeper than `maxNestingDepth`; walks with its own stack, never recursion. */
function findTooDeepField(body: object): string | undefined {
  const pending: Array<{ value: unknown; depth: number; field: string }> = Object.entries(body).map(
    ([field, value]) => ({ value, depth: 2, field }),
  );
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > maxNestingDepth) return next.field;
    for (const child of Object.values(next.value)) {
      pending.push({ value: child, depth: next.depth + 1, field: next.field });
    }
  }
  return undefined;
}

function formatParam(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => {
    if (typeof part === 'number') return `${text}[${part}]`;
    return text ? `${text}.${String(part)}` : String(part);
  }, '');
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
