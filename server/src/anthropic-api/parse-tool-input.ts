import { UpstreamError } from '../errors/upstream-error.ts';

/**
 * A tool call's `arguments` (a JSON string on the OpenAI wire) → the `input` object of a `tool_use` block. Vendors
 * send an empty string for a call without arguments; anything else that is not a JSON object is the model's fault.
 */
export function parseToolInput(argumentsText: string): Record<string, unknown> {
  if (argumentsText.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(argumentsText);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UpstreamError('The model returned tool input that is not a JSON object.', {
      code: 'invalid_tool_input',
    });
  }
  return { ...value };
}
