import { insertApiKey } from '../db/api-keys.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { generateApiKeySecret } from './api-key-secret.ts';

export type IssueApiKeyDeps = { db: Database; clock: Clock; ids: IdGenerator };

export type IssueApiKeyInput = {
  userId: string;
  name: string;
  expiresAt?: number | null;
  spendCapMicros?: number | null;
  allowedModels?: readonly string[] | null;
  requestsPerMinute?: number | null;
  tokensPerMinute?: number | null;
  dailyBudgetMicros?: number | null;
  monthlyBudgetMicros?: number | null;
};

export type IssuedApiKey = {
  id: string;
  key: string;
  name: string;
  displayPrefix: string;
  lastFour: string;
  createdAtMs: number;
};

/** Creates a key; the full key is returned here once and never again (only its hash is stored). */
export async function issueApiKey(deps: IssueApiKeyDeps, input: IssueApiKeyInput): Promise<IssuedApiKey> {
  const secret = generateApiKeySecret(deps.ids);
  const id = deps.ids.newId('key_');
  const createdAtMs = deps.clock.nowMs();
  await insertApiKey(deps.db, {
    id,
    user_id: input.userId,
    name: input.name,
    key_hash: secret.hash,
    prefix: secret.displayPrefix,
    last_four: secret.lastFour,
    created_at: createdAtMs,
    expires_at: input.expiresAt ?? null,
    spend_cap_micros: input.spendCapMicros ?? null,
    allowed_models: input.allowedModels ? input.allowedModels.join('\n') : null,
    requests_per_minute: input.requestsPerMinute ?? null,
    tokens_per_minute: input.tokensPerMinute ?? null,
    daily_budget_micros: input.dailyBudgetMicros ?? null,
    monthly_budget_micros: input.monthlyBudgetMicros ?? null,
  });
  await bumpCacheVersion(deps.db, 'api_keys');
  return {
    id,
    key: secret.key,
    name: input.name,
    displayPrefix: secret.displayPrefix,
    lastFour: secret.lastFour,
    createdAtMs,
  };
}
