import type { FastifyInstance } from 'fastify';
import { createApiKeyRequestSchema } from '../../../../contract/api-keys.ts';
import type { ApiKeyCache } from '../../accounts/api-key-cache.ts';
import { createAccountApiKey, type CreateAccountApiKeyDeps } from '../../accounts/create-account-api-key.ts';
import { listAccountApiKeys } from '../../accounts/list-account-api-keys.ts';
import { revokeAccountApiKey } from '../../accounts/revoke-account-api-key.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import type { SessionGuard } from '../middleware/session.ts';

export type ApiKeyRouteDeps = CreateAccountApiKeyDeps & {
  sessions: SessionGuard;
  apiKeyCache: Pick<ApiKeyCache, 'reload'>;
};

/** The signed-in account's API keys: list, create (the key is shown once), revoke. */
export function registerApiKeyRoutes(app: FastifyInstance, deps: ApiKeyRouteDeps): void {
  app.get('/api/keys', async (request) => listAccountApiKeys(deps, deps.sessions.requireSession(request).userId));

  app.post('/api/keys', async (request, reply) => {
    const { userId } = deps.sessions.requireSession(request);
    const body = parseWireRequest(createApiKeyRequestSchema, request.body);
    return reply.status(201).send(await createAccountApiKey(deps, { userId, request: body }));
  });

  app.delete<{ Params: { id: string } }>('/api/keys/:id', async (request) => {
    const { userId } = deps.sessions.requireSession(request);
    return revokeAccountApiKey(deps, { userId, keyId: request.params.id });
  });
}
