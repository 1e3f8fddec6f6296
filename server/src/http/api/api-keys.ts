import type { ApiKeyCache } from '../../accounts/api-key-cache.ts';
import { createAccountApiKey, type CreateAccountApiKeyDeps } from '../../accounts/create-account-api-key.ts';
import { listAccountApiKeys } from '../../accounts/list-account-api-keys.ts';
import { revokeAccountApiKey } from '../../accounts/revoke-account-api-key.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type ApiKeyHandlerDeps = CreateAccountApiKeyDeps & { apiKeyCache: Pick<ApiKeyCache, 'reload'> };

/** The signed-in account's API keys: list, create (the key is shown once), revoke. */
export function createApiKeyHandlers(
  deps: ApiKeyHandlerDeps,
): Pick<ApiHandlers, 'listApiKeys' | 'createApiKey' | 'revokeApiKey'> {
  return {
    listApiKeys: async ({ session }) => listAccountApiKeys(deps, session.userId),
    createApiKey: async ({ session, body }) => createAccountApiKey(deps, { userId: session.userId, request: body }),
    revokeApiKey: async ({ session, params }) =>
      revokeAccountApiKey(deps, { userId: session.userId, keyId: params.id }),
  };
}
