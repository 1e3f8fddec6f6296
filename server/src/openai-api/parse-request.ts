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
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = formatParam(issue?.path ?? []);
  const isMissing = issue !== undefined && issue.path.length > 0 && valueAt(body, issue.path) === undefined;
  const detail = issue?.message ?? 'invalid value';
  throw new InvalidRequestError(
    isMissing ? `Missing required parameter: '${param}'.` : `Invalid value for '${param}': ${detail}.`,
    { param: param || null, code: isMissing ? 'missing_required_parameter' : 'invalid_value' },
  );
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
