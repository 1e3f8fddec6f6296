import type { IncomingHttpHeaders } from 'node:http';

/** The key of an `Authorization: Bearer <key>` header, or undefined. */
export function readBearerKey(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S.*)$/i.exec(headers.authorization ?? '');
  return match?.[1]?.trim() || undefined;
}

/** Any non-empty key is accepted except those starting with `invalid` (README.md, "Auth"). */
export function isRejectedKey(key: string): boolean {
  return key.startsWith('invalid');
}

/** A key as vendors show it in error messages: never the whole secret. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `${key.slice(0, 4)}****${key.slice(-4)}`;
}
