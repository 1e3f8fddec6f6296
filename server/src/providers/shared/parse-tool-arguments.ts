import { InvalidRequestError } from '../../errors/invalid-request-error.ts';

/**
 * A replayed tool call's `arguments` (a JSON string on the OpenAI wire) → the object Anthropic (`input`) and Gemini
 * (`args`) require. An empty string is an empty object, as vendors stream it for calls without arguments.
 */
export function parseToolArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('Tool call arguments must be a JSON object.', { param });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRequestError('Tool call arguments must be a JSON object.', { param });
  }
  return { ...value };
}
