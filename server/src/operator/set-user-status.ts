import type { OperatorUser } from '../../../contract/operator.ts';
import type { ApiKeyCache } from '../accounts/api-key-cache.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import { findDirectoryUser } from '../db/user-directory.ts';
import { updateUserStatus } from '../db/users.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { toOperatorUsers, type OperatorReadDeps } from './list-operator-users.ts';

export type SetUserStatusDeps = OperatorReadDeps & { apiKeyCache: Pick<ApiKeyCache, 'reload'> };

/**
 * Blocks or unblocks an account. Its sessions are checked against the database on every request, so they stop at
 * once; its keys stop on this node at once (the key cache reloads) and on every other node at their next poll of
 * the `api_keys` cache version (500 ms).
 */
export async function setUserStatus(
  deps: SetUserStatusDeps,
  input: { operatorUserId: string; userId: string; status: 'active' | 'blocked' },
): Promise<OperatorUser> {
  if (input.status === 'blocked' && input.userId === input.operatorUserId) {
    throw new InvalidRequestError('You cannot block your own account.', { param: 'status' });
  }
  const user = await findDirectoryUser(deps.db, input.userId);
  if (!user) throw new NotFoundError(`There is no account \`${input.userId}\`.`);
  await updateUserStatus(deps.db, { userId: input.userId, status: input.status });
  await bumpCacheVersion(deps.db, 'api_keys');
  await deps.apiKeyCache.reload();
  const [updated] = await toOperatorUsers(deps, [{ ...user, status: input.status }]);
  if (!updated) throw new NotFoundError(`There is no account \`${input.userId}\`.`);
  return updated;
}
