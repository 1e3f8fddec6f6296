import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest, ChatTool } from '../../openai-api/chat-request.ts';
import { readMaxOutputTokens } from '../shared/max-output-tokens.ts';
import { reasoningBudgetTokens } from '../shared/reasoning-budget.ts';
import {
  nonStandardServiceTier,
  openAiOnlyParameters,
  refuseUnsupportedParameters,
  type UnsupportedParameter,
} from '../shared/refuse-unsupported-parameters.ts';
import { convertContents } from './convert-contents.ts';
import type {
  GeminiFunctionDeclaration,
  GeminiGenerationConfig,
  GeminiRequest,
  GeminiToolConfig,
} from './gemini-api.ts';

/**
 * Gemini cannot be held to one function call per turn (its calling modes are AUTO, ANY, NONE and VALIDATED, none with
 * a limit), so a request that may call tools and asks for no parallel calls is refused instead of answered with
 * several calls. Without tools, or with `tool_choice: "none"`, no call can come and the setting changes nothing.
 * @see https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes
 */
const parallelToolCallsOff: UnsupportedParameter = {
  param: 'parallel_tool_calls',
  isUsed: (request) =>
    request.parallel_tool_calls === false && (request.tools?.length ?? 0) > 0 && request.tool_choice !== 'none',
  message:
    "Gemini models cannot be limited to one tool call per turn: leave out 'parallel_tool_calls' or set it to true.",
};

const geminiUnsupportedParameters = [...openAiOnlyParameters, nonStandardServiceTier, parallelToolCallsOff];

/** Gemini function names: a letter or underscore first, then `[a-zA-Z0-9_.:-]`, at most 128 characters. */
const geminiFunctionNamePattern = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/;

/**
 * ChatRequest → Gemini generateContent request (mapping table, docs/reference/mapping.md). `n > 1`, OpenAI-only parameters,
 * service tiers other than the standard one and `parallel_tool_calls: false` with tools are refused with a 400.
 * Ignored because Gemini has no equivalent and they do not change the answer's content: `user`, `metadata`, `store`,
 * `prompt_cache_key`, `service_tier` `auto`/`default` (Gemini's one tier), `cache_control` on parts (Gemini caches
 * prefixes implicitly), tools' `strict` (Gemini always follows the declared schema). Grounding with Google Search is
 * never enabled on chat (`web_search_options` is refused), so answers carry no grounding metadata to map.
 * @see https://ai.google.dev/api/generate-content
 */
export function convertRequest(request: ChatRequest): GeminiRequest {
  refuseUnsupportedParameters({ request, vendorName: 'Gemini', parameters: geminiUnsupportedParameters });
  const { systemTexts, contents } = convertContents(request.messages);
  const body: GeminiRequest = { contents };
  if (systemTexts.length > 0) body.systemInstruction = { parts: systemTexts.map((text) => ({ text })) };
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = [{ functionDeclarations: request.tools.map(convertTool) }];
  }
  const toolConfig = convertToolChoice(request);
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  const generationConfig = convertGenerationConfig(request);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function convertTool(tool: ChatTool, index: number): GeminiFunctionDeclaration {
  const { name, description, parameters } = tool.function;
  if (!geminiFunctionNamePattern.test(name)) {
    throw new InvalidRequestError('Gemini function names must start with a letter or an underscore.', {
      param: `tools[${index}].function.name`,
    });
  }
  return {
    name,
    ...(description === undefined ? {} : { description }),
    ...(parameters === undefined ? {} : { parametersJsonSchema: parameters }),
  };
}

/** @see https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes */
function convertToolChoice(request: ChatRequest): GeminiToolConfig | undefined {
  const choice = request.tool_choice;
  if (choice === undefined) return undefined;
  if ((request.tools?.length ?? 0) === 0) {
    if (choice === 'none' || choice === 'auto') return undefined;
    throw new InvalidRequestError('tool_choice requires tools.', { param: 'tool_choice' });
  }
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}

function convertGenerationConfig(request: ChatRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (typeof request.temperature === 'number') config.temperature = request.temperature;
  if (typeof request.top_p === 'number') config.topP = request.top_p;
  const maxOutputTokens = readMaxOutputTokens(request);
  if (maxOutputTokens !== undefined) config.maxOutputTokens = maxOutputTokens;
  if (typeof request.stop === 'string') config.stopSequences = [request.stop];
  else if (Array.isArray(request.stop)) config.stopSequences = request.stop;
  if (typeof request.seed === 'number') config.seed = request.seed;
  if (typeof request.presence_penalty === 'number') config.presencePenalty = request.presence_penalty;
  if (typeof request.frequency_penalty === 'number') config.frequencyPenalty = request.frequency_penalty;
  const format = request.response_format;
  if (format?.type === 'json_object' || format?.type === 'json_schema') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema' && format.json_schema.schema !== undefined) {
    config.responseJsonSchema = format.json_schema.schema;
  }
  const effort = request.reasoning_effort;
  if (effort === 'none') config.thinkingConfig = { thinkingBudget: 0 };
  else if (effort !== null && effort !== undefined) {
    config.thinkingConfig = { thinkingBudget: reasoningBudgetTokens[effort], includeThoughts: true };
  }
  return config;
}
