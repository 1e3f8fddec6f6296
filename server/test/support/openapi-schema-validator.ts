import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';

/** The official OpenAI OpenAPI 3.1 file, an unmodified copy kept in the repository (decision 0574). */
export const openAiSpecPath = path.resolve(import.meta.dirname, '../../../conformance/openai-openapi.yaml');

export type OpenAiSchemaName =
  | 'CreateChatCompletionResponse'
  | 'CreateChatCompletionStreamResponse'
  | 'CreateCompletionResponse'
  | 'CreateEmbeddingResponse'
  | 'ErrorResponse'
  | 'ImagesResponse'
  | 'ListModelsResponse'
  | 'Model'
  | 'Response'
  | 'ResponseStreamEvent';

export type OpenApiSchemaValidator = {
  /** The problems of `value` against `components.schemas[name]`, one readable line each; empty when valid. */
  problemsOf: (name: OpenAiSchemaName, value: unknown) => string[];
};

const documentId = 'openai-openapi';

/**
 * Validates values against the schemas of the OpenAI OpenAPI file with Ajv in JSON Schema 2020-12 mode (what
 * OpenAPI 3.1 uses). Two adjustments, both faithful to the spec's intent:
 * - the file still carries OpenAPI 3.0's `nullable: true` in places (e.g. `usage` of a stream chunk); it is rewritten
 *   to "or null" (`type: [T, 'null']`, or `anyOf` with `{type: 'null'}` beside a `$ref`);
 * - `format` values (`unixtime`, …) are not checked, and vendor keywords (`x-*`, `discriminator`) are ignored.
 * Objects stay open unless the spec says `additionalProperties: false`, so the gateway's additions (`usage.cost`,
 * pricing on models) are allowed exactly where the spec allows extra keys.
 */
export function loadOpenApiSchemaValidator(specPath: string = openAiSpecPath): OpenApiSchemaValidator {
  if (!existsSync(specPath)) {
    throw new Error(`The OpenAI OpenAPI file is missing at ${specPath}: the conformance suite cannot run without it.`);
  }
  const document = parse(readFileSync(specPath, 'utf8'), { maxAliasCount: -1 }) as {
    components: { schemas: Record<string, unknown> };
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  ajv.addSchema({ $id: documentId, components: { schemas: rewriteNullable(document.components.schemas) } });
  const compiled = new Map<OpenAiSchemaName, ValidateFunction>();
  const validatorFor = (name: OpenAiSchemaName): ValidateFunction => {
    const existing = compiled.get(name);
    if (existing) return existing;
    const validate = ajv.getSchema(`${documentId}#/components/schemas/${name}`);
    if (!validate) throw new Error(`The OpenAPI file has no schema named ${name}.`);
    compiled.set(name, validate);
    return validate;
  };
  return {
    problemsOf: (name, value) => {
      const validate = validatorFor(name);
      if (validate(value)) return [];
      return (validate.errors ?? []).map(
        (error) =>
          `${name}${error.instancePath || '/'} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
      );
    },
  };
}

function rewriteNullable<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item: unknown) => rewriteNullable(item)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const rewritten = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, rewriteNullable(value)]));
  if (nullable !== true) return rewritten as T;
  if (typeof rewritten.type === 'string') {
    const withNull: Record<string, unknown> = { ...rewritten, type: [rewritten.type, 'null'] };
    if (Array.isArray(rewritten.enum)) withNull.enum = [...(rewritten.enum as unknown[]), null];
    return withNull as T;
  }
  const { description, ...schema } = rewritten;
  return { description, anyOf: [schema, { type: 'null' }] } as T;
}
