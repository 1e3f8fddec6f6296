import { generatePhrase } from './generate-words.ts';
import { isJsonObject, readArray, readNumber, readString, type JsonObject } from './json-guards.ts';
import type { Random } from './random.ts';

const maximumDepth = 6;

/**
 * A JSON value valid against a JSON Schema (the subset tools and structured outputs use: type, properties, required,
 * items, enum, const, anyOf/oneOf/allOf, $ref to $defs/definitions, numeric and length bounds, common formats).
 * Gemini's OpenAPI-style schemas (`"type": "STRING"`) are accepted too.
 */
export function generateFromSchema(schema: unknown, random: Random): unknown {
  const root = isJsonObject(schema) ? schema : {};
  return generateValue(root, { random, root, depth: 0 });
}

type Context = { random: Random; root: JsonObject; depth: number };

function generateValue(schema: JsonObject, context: Context): unknown {
  const resolved = resolveReference(schema, context.root);
  if ('const' in resolved) return resolved['const'];
  const enumValues = readArray(resolved, 'enum');
  if (enumValues && enumValues.length > 0) return context.random.pick(enumValues);
  const alternatives = readArray(resolved, 'anyOf') ?? readArray(resolved, 'oneOf');
  const firstAlternative = alternatives?.find(isJsonObject);
  if (firstAlternative) return generateValue(firstAlternative, context);
  const allOf = readArray(resolved, 'allOf')?.filter(isJsonObject);
  if (allOf && allOf.length > 0) return generateValue(mergeAllOf(resolved, allOf, context.root), context);
  switch (pickType(resolved)) {
    case 'object':
      return generateObject(resolved, context);
    case 'array':
      return generateArray(resolved, context);
    case 'string':
      return generateString(resolved, context.random);
    case 'integer':
      return generateNumber(resolved, context.random, true);
    case 'number':
      return generateNumber(resolved, context.random, false);
    case 'boolean':
      return context.random.nextInt(2) === 1;
    case 'null':
      return null;
  }
}

type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
const schemaTypes: readonly SchemaType[] = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];

function pickType(schema: JsonObject): SchemaType {
  const declared = schema['type'];
  const names = (Array.isArray(declared) ? declared : [declared])
    .filter((name): name is string => typeof name === 'string')
    .map((name) => name.toLowerCase());
  const known = names.map((name) => schemaTypes.find((type) => type === name)).filter((type) => type !== undefined);
  const nonNull = known.find((type) => type !== 'null');
  if (nonNull) return nonNull;
  if (known[0]) return known[0];
  if (isJsonObject(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return 'string';
}

function resolveReference(schema: JsonObject, root: JsonObject): JsonObject {
  let current = schema;
  for (let hops = 0; hops < 16; hops += 1) {
    const reference = readString(current, '$ref');
    if (!reference?.startsWith('#')) return current;
    let target: unknown = root;
    for (const segment of reference.slice(1).split('/').filter(Boolean)) {
      target = isJsonObject(target)
        ? target[decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~')]
        : undefined;
    }
    if (!isJsonObject(target)) return {};
    current = target;
  }
  return current;
}

function mergeAllOf(schema: JsonObject, parts: readonly JsonObject[], root: JsonObject): JsonObject {
  const properties: Record<string, unknown> = {};
  const required: unknown[] = [];
  let merged: Record<string, unknown> = { ...schema, allOf: undefined };
  for (const part of parts.map((item) => resolveReference(item, root))) {
    merged = { ...merged, ...part };
    if (isJsonObject(part['properties'])) Object.assign(properties, part['properties']);
    required.push(...(readArray(part, 'required') ?? []));
  }
  if (isJsonObject(schema['properties'])) Object.assign(properties, schema['properties']);
  required.push(...(readArray(schema, 'required') ?? []));
  delete merged['allOf'];
  return Object.keys(properties).length > 0 ? { ...merged, properties, required } : merged;
}

function generateObject(schema: JsonObject, context: Context): Record<string, unknown> {
  const properties = isJsonObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set((readArray(schema, 'required') ?? []).filter((name) => typeof name === 'string'));
  const object: Record<string, unknown> = {};
  const isDeep = context.depth >= maximumDepth;
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (isDeep && !required.has(name)) continue;
    object[name] = generateValue(isJsonObject(propertySchema) ? propertySchema : {}, {
      ...context,
      depth: context.depth + 1,
    });
  }
  return object;
}

function generateArray(schema: JsonObject, context: Context): unknown[] {
  const minimum = readNumber(schema, 'minItems') ?? 1;
  const maximum = readNumber(schema, 'maxItems') ?? Math.max(minimum, 3);
  const count =
    context.depth >= maximumDepth
      ? minimum
      : minimum + context.random.nextInt(Math.min(maximum, minimum + 2) - minimum + 1);
  const prefixItems = readArray(schema, 'prefixItems')?.filter(isJsonObject) ?? [];
  const items = isJsonObject(schema['items']) ? schema['items'] : {};
  const values: unknown[] = [];
  for (let index = 0; index < count; index += 1) {
    values.push(generateValue(prefixItems[index] ?? items, { ...context, depth: context.depth + 1 }));
  }
  return values;
}

function generateString(schema: JsonObject, random: Random): string {
  const format = readString(schema, 'format');
  const examples = readArray(schema, 'examples')?.filter((example) => typeof example === 'string');
  let text: string;
  if (format === 'date-time') text = '2025-01-15T09:30:00Z';
  else if (format === 'date') text = '2025-01-15';
  else if (format === 'time') text = '09:30:00';
  else if (format === 'email') text = `${generatePhrase(random, 1)}@example.com`;
  else if (format === 'uri' || format === 'url') text = `https://example.com/${generatePhrase(random, 1)}`;
  else if (format === 'uuid') text = '123e4567-e89b-42d3-a456-426614174000';
  else if (examples && examples.length > 0) text = random.pick(examples);
  else text = generatePhrase(random, 1 + random.nextInt(3));
  const minimumLength = readNumber(schema, 'minLength') ?? 0;
  const maximumLength = readNumber(schema, 'maxLength');
  while (Array.from(text).length < minimumLength) text += ` ${generatePhrase(random, 1)}`;
  if (maximumLength !== undefined) text = Array.from(text).slice(0, Math.max(0, maximumLength)).join('');
  return text;
}

function generateNumber(schema: JsonObject, random: Random, isInteger: boolean): number {
  const exclusiveMinimum = readNumber(schema, 'exclusiveMinimum');
  const exclusiveMaximum = readNumber(schema, 'exclusiveMaximum');
  let low =
    readNumber(schema, 'minimum') ?? (exclusiveMinimum === undefined ? 0 : exclusiveMinimum + (isInteger ? 1 : 0.5));
  let high =
    readNumber(schema, 'maximum') ??
    (exclusiveMaximum === undefined ? low + 100 : exclusiveMaximum - (isInteger ? 1 : 0.5));
  if (high < low) high = low;
  if (isInteger) {
    low = Math.ceil(low);
    high = Math.floor(high);
  }
  const multipleOf = readNumber(schema, 'multipleOf');
  if (multipleOf !== undefined && multipleOf > 0) {
    const first = Math.ceil(low / multipleOf) * multipleOf;
    const stepCount = Math.max(1, Math.floor((high - first) / multipleOf) + 1);
    return first + multipleOf * random.nextInt(stepCount);
  }
  if (isInteger) return low + random.nextInt(Math.max(1, high - low + 1));
  return Math.round((low + random.nextFloat() * (high - low)) * 100) / 100;
}
