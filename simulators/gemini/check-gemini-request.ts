import { createSimError, type SimError } from '../shared/sim-error.ts';
import type { GeminiContent, GenerateContentRequest } from './generate-content-schema.ts';

/**
 * Gemini's semantic 400s (docs/reference/gemini.md §Request): contents present, valid roles, non-empty parts, named function
 * responses, built-in tools beside function declarations, and — for the current turn — a `thoughtSignature` on the
 * first `functionCall` part of each model turn.
 */
export function checkGeminiRequest(request: GenerateContentRequest, model: string): SimError | undefined {
  const toolError = checkToolCombination(request, model);
  if (toolError) return toolError;
  const contents = request.contents ?? [];
  if (contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  for (const [index, content] of contents.entries()) {
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') {
      return invalid('Please use a valid role: user, model.');
    }
    const parts = content.parts ?? [];
    if (parts.length === 0)
      return invalid(`* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`);
    for (const [partIndex, part] of parts.entries()) {
      if (part.functionResponse && !part.functionResponse.name) {
        return invalid(
          `* GenerateContentRequest.contents[${index}].parts[${partIndex}].function_response.name: Name cannot be empty.\n`,
        );
      }
    }
  }
  return findMissingThoughtSignature(contents);
}

/**
 * Google Search beside function declarations: Gemini 2.x refuses the pair outright; Gemini 3 takes it only with
 * `toolConfig.includeServerSideToolInvocations` ("tool combination"), which the simulator does not implement (its
 * schema refuses the field as unknown), so for Gemini 3 it answers the error Google gives without the flag.
 * @see https://ai.google.dev/gemini-api/docs/tool-combination
 */
function checkToolCombination(request: GenerateContentRequest, model: string): SimError | undefined {
  const tools = request.tools ?? [];
  const hasFunctions = tools.some((tool) => (tool.functionDeclarations ?? []).length > 0);
  const hasSearch = tools.some((tool) => tool.googleSearch !== undefined || tool.googleSearchRetrieval !== undefined);
  if (!hasFunctions || !hasSearch) return undefined;
  return /^gemini-[3-9]/.test(model)
    ? invalid(
        'Please enable tool_config.include_server_side_tool_invocations to use Built-in tools with Function calling.',
      )
    : invalid('Tool use with function calling is unsupported by the model.');
}

/** Only the current turn is checked: the model turns after the last user message that has text. */
function findMissingThoughtSignature(contents: readonly GeminiContent[]): SimError | undefined {
  let turnStart = 0;
  contents.forEach((content, index) => {
    if ((content.role ?? 'user') === 'user' && (content.parts ?? []).some((part) => part.text !== undefined))
      turnStart = index;
  });
  for (let index = turnStart; index < contents.length; index += 1) {
    const content = contents[index];
    if (content?.role !== 'model') continue;
    const firstCall = (content.parts ?? []).find((part) => part.functionCall);
    if (firstCall?.functionCall && !firstCall.thoughtSignature) {
      return invalid(
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${firstCall.functionCall.name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    }
  }
  return undefined;
}

function invalid(message: string): SimError {
  return createSimError(400, message);
}
