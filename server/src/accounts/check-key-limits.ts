import { countUsableApiKeys } from '../db/api-keys.ts';
import type { Database } from '../db/database.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { AccountTerms } from './account-terms.ts';

/**
 * A customer may give a key a lower limit than the account's, never a higher one: custom limits are arranged with the
 * operator (account terms). And an account holds at most its number of usable keys, so more keys never mean more of
 * anything that is counted per key.
 */
export async function checkKeyLimits(
  deps: { db: Database; accountTerms: Pick<AccountTerms, 'limitsOf'> },
  input: { userId: string; nowMs: number; requestsPerMinute: number | null; tokensPerMinute: number | null },
): Promise<void> {
  const limits = deps.accountTerms.limitsOf(input.userId);
  if (input.requestsPerMinute !== null && input.requestsPerMinute > limits.keyRequestsPerMinute) {
    throw new InvalidRequestError(
      `\`requests_per_minute\` may be at most ${limits.keyRequestsPerMinute}, this account's limit per key; a higher limit is arranged with the operator.`,
      { param: 'requests_per_minute', code: 'limit_above_account' },
    );
  }
  const tokenCeiling = limits.keyTokensPerMinute;
  if (input.tokensPerMinute !== null && tokenCeiling !== undefined && input.tokensPerMinute > tokenCeiling) {
    throw new InvalidRequestError(
      `\`tokens_per_minute\` may be at most ${tokenCeiling}, this account's limit per key; a higher limit is arranged with the operator.`,
      { param: 'tokens_per_minute', code: 'limit_above_account' },
    );
  }
  const usableKeys = await countUsableApiKeys(deps.db, { userId: input.userId, nowMs: input.nowMs });
  if (usableKeys >= limits.maxKeys) {
    throw new InvalidRequestError(
      `This account already has ${usableKeys} API keys, the most it may hold; revoke one before creating another.`,
      { code: 'too_many_api_keys' },
    );
  }
}
