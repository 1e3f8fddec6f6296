import { createHash } from 'node:crypto';
import type { IdGenerator } from '../lib/ids.ts';

/** A session lasts 30 days from sign-in, in the cookie and on the server alike. */
export const sessionLifetimeMs = 30 * 24 * 60 * 60 * 1000;
const tokenBytes = 32;

/** A random 32-byte cookie token (base64url) and the SHA-256 that is the only form the database keeps. */
export function generateSessionToken(ids: IdGenerator): { token: string; hash: string } {
  const token = ids.randomToken(tokenBytes);
  return { token, hash: hashSessionToken(token) };
}

/** A fast hash suffices: the token has 256 bits of entropy, so it cannot be found from its hash. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A CSRF token the browser echoes in `x-csrf-token`; random and independent of the session token. */
export function generateCsrfToken(ids: IdGenerator): string {
  return ids.randomToken(tokenBytes);
}
