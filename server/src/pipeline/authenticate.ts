import { looksLikeApiKey } from '../accounts/api-key-secret.ts';
import type { ApiKeyCache, CachedApiKey } from '../accounts/api-key-cache.ts';
import { AuthenticationError } from '../errors/authentication-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import type { Clock } from '../lib/clock.ts';

/** Who is calling: the key and its owner's account. */
export type Caller = { key: CachedApiKey; userId: string; isOperator: boolean };

export type AuthenticateDeps = { apiKeyCache: ApiKeyCache; clock: Clock };

/** `Authorization: Bearer sk-…` (or Anthropic-style `x-api-key`) → Caller. Served from memory on the hot path. */
export async function authenticate(
  deps: AuthenticateDeps,
  headers: { authorization?: string | undefined; apiKey?: string | undefined },
): Promise<Caller> {
  const key = readKey(headers);
  if (!key) {
    throw new AuthenticationError(
      'You did not provide an API key. Send it as `Authorization: Bearer sk-…`; keys are created in the dashboard.',
      { code: 'missing_api_key' },
    );
  }
  if (!looksLikeApiKey(key)) throw new AuthenticationError(`Incorrect API key provided: ${maskKey(key)}.`);
  const cached = await deps.apiKeyCache.findByKey(key);
  if (!cached) throw new AuthenticationError(`Incorrect API key provided: ${maskKey(key)}.`);
  if (cached.expiresAtMs !== null && cached.expiresAtMs <= deps.clock.nowMs()) {
    throw new AuthenticationError('This API key has expired.', { code: 'expired_api_key' });
  }
  if (cached.isOwnerBlocked) {
    throw new PermissionDeniedError('This account is blocked; contact the operator.', { code: 'account_blocked' });
  }
  return { key: cached, userId: cached.userId, isOperator: cached.userRole === 'admin' };
}

function readKey(headers: { authorization?: string | undefined; apiKey?: string | undefined }): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return bearer?.[1] ?? (headers.apiKey?.trim() || undefined);
}

function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `${key.slice(0, 3)}****${key.slice(-4)}`;
}
