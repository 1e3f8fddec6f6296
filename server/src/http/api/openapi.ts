import { z } from 'zod';
import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import { errorBodySchema } from '../../../../contract/errors.ts';
import { buildAccountApiPaths } from './build-account-api-paths.ts';

/**
 * The OpenAPI 3.1 document of the account and operator API, generated from the endpoint table in `contract/` that
 * the server registers its routes from and the web app's client is typed by, so it cannot drift from the code.
 */
export function buildOpenApiDocument(input: { version: string; serverUrl: string }): Record<string, unknown> {
  const schema = (value: z.ZodType) => z.toJSONSchema(value, { target: 'draft-2020-12', io: 'output' });
  const accountApi = buildAccountApiPaths(apiEndpoints, schema);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Model gateway account and operator API',
      version: input.version,
      description: 'Account, billing and operator endpoints. The model API itself is OpenAI-compatible under /v1.',
    },
    servers: [{ url: input.serverUrl }],
    paths: accountApi.paths,
    components: {
      schemas: { ErrorBody: schema(errorBodySchema), ...accountApi.schemas },
      securitySchemes: accountApi.securitySchemes,
    },
  };
}
