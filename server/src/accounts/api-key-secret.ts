import { createHash } from 'node:crypto';
import type { IdGenerator } from '../lib/ids.ts';

/** `sk-` + 32 random bytes in base64url (43 characters). Only the SHA-256 of the whole key is stored. */
export const apiKeyPrefix = 'sk-';
const secretBytes = 32;

export type NewApiKeySecret = { key: string; hash: string; displayPrefix: string; lastFour: string };

export function generateApiKeySecret(ids: IdGenerator): NewApiKeySecret {
  const key = `${apiKeyPrefix}${ids.randomToken(secretBytes)}`;
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, 7), lastFour: key.slice(-4) };
}

/** A fast hash is right here: the key has 256 bits of entropy, so it cannot be guessed from its hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return /^sk-[A-Za-z0-9_-]{43,}$/.test(value);
}
