import { getCredits } from '../../accounts/get-credits.ts';
import { getKeyInfo } from '../../accounts/get-key-info.ts';
import type { Database } from '../../db/database.ts';
import type { AccountTerms } from '../../accounts/account-terms.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type KeyInfoHandlerDeps = { db: Database; accountTerms: Pick<AccountTerms, 'limitsOf'> };

/** OpenRouter-compatible `GET /v1/key` (also `/v1/auth/key`) and `GET /v1/credits`, with the API key. */
export function createKeyInfoHandlers(
  deps: KeyInfoHandlerDeps,
): Pick<ApiHandlers, 'getCredits' | 'getKeyInfo' | 'getKeyInfoLegacyPath'> {
  return {
    getCredits: async ({ caller }) => getCredits(deps, caller.userId),
    getKeyInfo: async ({ caller }) => getKeyInfo(deps, caller.key),
    getKeyInfoLegacyPath: async ({ caller }) => getKeyInfo(deps, caller.key),
  };
}
