import { isJsonObject } from '../shared/json-guards.ts';

/**
 * Proto3 JSON accepts a field's original snake_case name as well as its lowerCamel name; this renames the request's
 * own fields to camelCase (never user data such as schema property names or function arguments).
 */
export function normalizeFieldNames(body: unknown): unknown {
  if (!isJsonObject(body)) return body;
  const request = camelKeys(body);
  if (isJsonObject(request['generationConfig'])) {
    const config = camelKeys(request['generationConfig']);
    if (isJsonObject(config['thinkingConfig'])) config['thinkingConfig'] = camelKeys(config['thinkingConfig']);
    request['generationConfig'] = config;
  }
  if (isJsonObject(request['toolConfig'])) {
    const toolConfig = camelKeys(request['toolConfig']);
    if (isJsonObject(toolConfig['functionCallingConfig']))
      toolConfig['functionCallingConfig'] = camelKeys(toolConfig['functionCallingConfig']);
    request['toolConfig'] = toolConfig;
  }
  if (Array.isArray(request['tools']))
    request['tools'] = request['tools'].map((tool) => (isJsonObject(tool) ? camelKeys(tool) : tool));
  if (Array.isArray(request['contents'])) request['contents'] = request['contents'].map(normalizeContent);
  if (request['systemInstruction'] !== undefined)
    request['systemInstruction'] = normalizeContent(request['systemInstruction']);
  return request;
}

function normalizeContent(content: unknown): unknown {
  if (!isJsonObject(content)) return content;
  const normalized = camelKeys(content);
  if (Array.isArray(normalized['parts'])) {
    normalized['parts'] = normalized['parts'].map((part) => (isJsonObject(part) ? camelKeys(part) : part));
  }
  return normalized;
}

function camelKeys(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [
      key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
      value,
    ]),
  );
}
