import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '../../../../contract/errors.ts';
import { publicModelListSchema } from '../../../../contract/models.ts';
import { accountApiOperations } from './account-api-operations.ts';
import { buildAccountApiPaths } from './build-account-api-paths.ts';
import { chatApiOperations } from './chats.ts';
import { operatorApiOperations, subscriptionApiOperations } from './operator-api-operations.ts';
import { operatorRouteOperations } from './operator-route-operations.ts';
import { operatorPaymentApiOperations, topUpApiOperations } from './payment-api-operations.ts';

/**
 * The OpenAPI 3.1 document of the account and operator API, generated from the same zod schemas in `contract/`
 * that the server validates with and the web app's client uses, so it cannot drift from the code.
 */
export function buildOpenApiDocument(input: { version: string; serverUrl: string }): Record<string, unknown> {
  const schema = (value: z.ZodType) => z.toJSONSchema(value, { target: 'draft-2020-12', io: 'output' });
  const accountApi = buildAccountApiPaths(
    [
      ...accountApiOperations,
      ...chatApiOperations,
      ...subscriptionApiOperations,
      ...operatorApiOperations,
      ...operatorRouteOperations,
      ...topUpApiOperations,
      ...operatorPaymentApiOperations,
    ],
    schema,
  );
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Model gateway account and operator API',
      version: input.version,
      description: 'Account, billing and operator endpoints. The model API itself is OpenAI-compatible under /v1.',
    },
    servers: [{ url: input.serverUrl }],
    paths: {
      '/api/models': {
        get: {
          operationId: 'listPublicModels',
          summary: 'The public price list: every available model with our and the vendor list price',
          responses: {
            '200': {
              description: 'The price list',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/PublicModelList' } } },
            },
            '500': errorResponse('Server error'),
          },
        },
      },
      ...accountApi.paths,
    },
    components: {
      schemas: {
        ErrorBody: schema(errorBodySchema),
        PublicModelList: schema(publicModelListSchema),
        ...accountApi.schemas,
      },
      securitySchemes: accountApi.securitySchemes,
    },
  };
}

export function registerOpenApiRoute(app: FastifyInstance, input: { version: string; serverUrl: string }): void {
  const document = buildOpenApiDocument(input);
  app.get('/api/openapi.json', async () => document);
}
