import { UpstreamError } from '../errors/upstream-error.ts';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';

/**
 * A tool call's `arguments` (a JSON string on the OpenAI wire) → the `input` object of a `tool_use` block. Vendors
 * send an empty string for a call without arguments; anything else that is not a JSON object is the model's fault.
 */
export function parseToolInput(argumentsText: string): Record<string, unknown> {
  if (argumentsText.trim() === '') return {};
  // Text that is not JSON comes back as the text itself, which the object check below refuses.
  const value = parseBodyText(argumentsText);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UpstreamError('The model returned tool input that is not a JSON object.', {
      code: 'invalid_tool_input',
    });
  }
  return { ...value };
}
