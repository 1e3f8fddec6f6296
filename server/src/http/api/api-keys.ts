import type { ApiKeyCache } from '../../accounts/api-key-cache.ts';
import { createAccountApiKey, type CreateAccountApiKeyDeps } from '../../accounts/create-account-api-key.ts';
import { listAccountApiKeys } from '../../accounts/list-account-api-keys.ts';
import { revokeAccountApiKey } from '../../accounts/revoke-account-api-key.ts';
import type { ApiHandlers } from './endpoint-handler.ts';
import { listSecurityEvents } from '../../accounts/list-security-events.ts';
import { recordSecurityEvent } from '../../audit/record-audit.ts';

export type ApiKeyHandlerDeps = CreateAccountApiKeyDeps & { apiKeyCache: Pick<ApiKeyCache, 'reload'> };

/** The signed-in account's API keys: list, create (the key is shown once), revoke; and its security events. */
export function createApiKeyHandlers(
  deps: ApiKeyHandlerDeps,
): Pick<ApiHandlers, 'listApiKeys' | 'createApiKey' | 'revokeApiKey' | 'listSecurityEvents'> {
  return {
    listApiKeys: async ({ session }) => listAccountApiKeys(deps, session.userId),
    createApiKey: async ({ request, session, body }) => {
      const created = await createAccountApiKey(deps, { userId: session.userId, request: body });
      const target = { kind: 'api_key', id: created.id };
      await recordSecurityEvent(deps, { ...event(session, request), action: 'api_key_created', target });
      return created;
    },
    revokeApiKey: async ({ request, session, params }) => {
      const revoked = await revokeAccountApiKey(deps, { userId: session.userId, keyId: params.id });
      const target = { kind: 'api_key', id: params.id };
      await recordSecurityEvent(deps, { ...event(session, request), action: 'api_key_revoked', target });
      return revoked;
    },
    listSecurityEvents: async ({ session }) => listSecurityEvents(deps, session.userId),
  };
}

const event = (session: { userId: string }, request: { ip: string }) => ({
  accountId: session.userId,
  clientAddress: request.ip,
});
