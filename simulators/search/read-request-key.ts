import type { IncomingHttpHeaders } from 'node:http';

/** A header's value, the first one when it was sent twice, trimmed; undefined when absent or blank. */
export function readHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
}

/** The key of an `Authorization: Bearer <key>` header. */
export function readBearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(readHeader(headers, 'authorization') ?? '');
  return match?.[1];
}

/** Any key is accepted except those starting with `invalid` (the simulators' convention). */
export function isRejectedKey(key: string): boolean {
  return key.startsWith('invalid');
}
