import { isJsonObject } from '../shared/json-guards.ts';

// Proto3 JSON accepts each field's lowerCamel name and its original snake_case name; anything else is rejected.
const requestFields = [
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'safetySettings',
  'generationConfig',
  'cachedContent',
  'labels',
  'serviceTier',
  'store',
];
const generationConfigFields = [
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'enableEnhancedCivicAnswers',
  'speechConfig',
  'thinkingConfig',
  'imageConfig',
  'mediaResolution',
  'routingConfig',
  'audioTimestamp',
];
// Tool combination's `includeServerSideToolInvocations` is left out on purpose: the simulator does not implement it.
const toolConfigFields = ['functionCallingConfig', 'retrievalConfig'];
const contentFields = ['role', 'parts'];
const partFields = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'thought',
  'thoughtSignature',
  'executableCode',
  'codeExecutionResult',
  'videoMetadata',
  'partMetadata',
  'mediaResolution',
];

/**
 * The first field Gemini would reject as unknown, as its error text: e.g. `Invalid JSON payload received. Unknown name
 * "max_tokens" at 'generation_config': Cannot find field.` Gateways that send OpenAI names get this 400 from Google.
 */
export function findUnknownField(body: unknown): string | undefined {
  if (!isJsonObject(body)) return undefined;
  const found = findIn(body, requestFields, undefined);
  if (found) return found;
  if (isJsonObject(body['generationConfig'])) {
    const inConfig = findIn(body['generationConfig'], generationConfigFields, 'generation_config');
    if (inConfig) return inConfig;
  }
  const toolConfig = body['toolConfig'] ?? body['tool_config'];
  if (isJsonObject(toolConfig)) {
    const inToolConfig = findIn(toolConfig, toolConfigFields, 'tool_config');
    if (inToolConfig) return inToolConfig;
  }
  const contents = Array.isArray(body['contents']) ? body['contents'] : [];
  for (const [contentIndex, content] of contents.entries()) {
    if (!isJsonObject(content)) continue;
    const inContent = findIn(content, contentFields, `contents[${contentIndex}]`);
    if (inContent) return inContent;
    const parts = Array.isArray(content['parts']) ? content['parts'] : [];
    for (const [partIndex, part] of parts.entries()) {
      if (!isJsonObject(part)) continue;
      const inPart = findIn(part, partFields, `contents[${contentIndex}].parts[${partIndex}]`);
      if (inPart) return inPart;
    }
  }
  return undefined;
}

function findIn(
  object: Record<string, unknown>,
  fields: readonly string[],
  location: string | undefined,
): string | undefined {
  const unknown = Object.keys(object).find((key) => !fields.includes(key) && !fields.includes(snakeToCamel(key)));
  if (unknown === undefined) return undefined;
  const at = location === undefined ? '' : ` at '${location}'`;
  return `Invalid JSON payload received. Unknown name "${unknown}"${at}: Cannot find field.`;
}

function snakeToCamel(name: string): string {
  return name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}
