import type { ApiKeyList } from '../../../contract/api-keys.ts';
import { listApiKeysForUser } from '../db/api-keys.ts';
import type { Database } from '../db/database.ts';
import { toApiKeySummary } from './to-api-key-summary.ts';

/** The account's keys that are not revoked, newest first (expired ones included: they show their expiry). */
export async function listAccountApiKeys(deps: { db: Database }, userId: string): Promise<ApiKeyList> {
  const rows = await listApiKeysForUser(deps.db, userId);
  return { data: rows.filter((row) => row.revoked_at === null).map(toApiKeySummary) };
}
