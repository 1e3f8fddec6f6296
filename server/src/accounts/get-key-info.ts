import type { KeyInfo } from '../../../contract/key-info.ts';
import { findApiKeyById } from '../db/api-keys.ts';
import type { Database } from '../db/database.ts';
import { microsToUsd } from '../lib/money.ts';
import type { CachedApiKey } from './api-key-cache.ts';
import { findKeyLimit } from '../limits/account-limits.ts';
import type { AccountTerms } from './account-terms.ts';

/**
 * `GET /v1/key` in OpenRouter's shape: the key's name, spend cap, spend and request budget per minute. The spend is
 * read from the database, which every node's settlements update, rather than from this node's cache.
 */
export async function getKeyInfo(
  deps: { db: Database; accountTerms: Pick<AccountTerms, 'limitsOf'> },
  key: CachedApiKey,
): Promise<KeyInfo> {
  const spentMicros = (await findApiKeyById(deps.db, key.id))?.spent_micros ?? key.spentMicros;
  const cap = key.spendCapMicros;
  const ceiling = deps.accountTerms.limitsOf(key.userId).keyRequestsPerMinute;
  return {
    data: {
      label: key.name,
      limit: cap === null ? null : microsToUsd(cap),
      usage: microsToUsd(spentMicros),
      limit_remaining: cap === null ? null : microsToUsd(Math.max(0, cap - spentMicros)),
      is_free_tier: false,
      expires_at: key.expiresAtMs === null ? null : new Date(key.expiresAtMs).toISOString(),
      rate_limit: { requests: findKeyLimit(key.requestsPerMinute, ceiling), interval: '1m' },
    },
  };
}
