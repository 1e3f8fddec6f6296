import type { z } from 'zod';
import { listPathParameters, type ApiEndpoint, type EndpointAuth } from '../../../../contract/api-endpoint.ts';

type JsonSchemaOf = (schema: z.ZodType) => Record<string, unknown>;

/** OpenAPI `paths`, named component schemas and security schemes for the given endpoints, keyed by operation id. */
export function buildAccountApiPaths(endpoints: Readonly<Record<string, ApiEndpoint>>, schemaOf: JsonSchemaOf) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {};
  const reference = (named: { name: string; schema: z.ZodType }) => {
    schemas[named.name] ??= schemaOf(named.schema);
    return { $ref: `#/components/schemas/${named.name}` };
  };
  for (const [operationId, operation] of Object.entries(endpoints)) {
    const { response } = operation;
    const responses: Record<string, unknown> = {
      [response.status]: {
        description: response.description,
        ...(response.json ? { content: { 'application/json': { schema: reference(response.json) } } } : {}),
        ...(response.csv ? { content: { 'text/csv': { schema: { type: 'string' } } } } : {}),
      },
    };
    for (const [status, description] of Object.entries({ ...operation.errors, '500': 'Server error' })) {
      responses[status] = {
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      };
    }
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = {
      operationId,
      summary: operation.summary,
      security: securityOf(operation.auth),
      parameters: [
        ...pathParameters(listPathParameters(operation.path)),
        ...queryParameters(operation.query, schemaOf),
      ],
      ...(operation.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: reference(operation.body) } } } }
        : {}),
      responses,
    };
  }
  return { paths, schemas, securitySchemes };
}

const securitySchemes = {
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'gw_session' },
  csrfToken: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
  apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, `sk-…`' },
};

function securityOf(auth: EndpointAuth): Record<string, string[]>[] {
  if (auth === 'public') return [];
  if (auth === 'apiKey') return [{ apiKey: [] }];
  return [{ sessionCookie: [], csrfToken: [] }];
}

function pathParameters(names: readonly string[]) {
  return names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

function queryParameters(query: z.ZodObject | undefined, schemaOf: JsonSchemaOf) {
  if (!query) return [];
  const json = schemaOf(query) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema,
  }));
}
