import type { InputUnit } from './conversation.ts';

/**
 * JSON mode without a schema (`response_format: {"type":"json_object"}`, Gemini's `responseMimeType` alone): clients
 * that use it put the schema in the prompt (instructor's JSON mode, LangChain's `json_mode`, LiteLLM's fallback).
 * The last JSON Schema object found in the input text, so the answer follows it like a model that read it would;
 * undefined when there is none.
 */
export function findSchemaInPrompt(units: readonly InputUnit[]): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  for (const unit of units) {
    for (const candidate of balancedObjects(unit.text)) {
      const value = parseObject(candidate);
      if (value && isSchema(value)) found = value;
    }
  }
  return found;
}

function isSchema(value: Record<string, unknown>): boolean {
  const properties = value.properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The outermost `{…}` spans of a text whose braces balance (braces inside JSON strings are skipped). */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let isInString = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (isInString) {
      if (character === '\\') index += 1;
      else if (character === '"') isInString = false;
    } else if (character === '"' && depth > 0) isInString = true;
    else if (character === '{') {
      if (depth === 0) start = index;
      depth += 1;
    } else if (character === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) spans.push(text.slice(start, index + 1));
    }
  }
  return spans;
}
