import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie: HttpOnly (no script reads it), SameSite=Lax, Path=/, Secure when served over https. */
export const sessionCookieName = 'gw_session';

export function readSessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== sessionCookieName) continue;
    const value = part.slice(separator + 1).trim();
    return value || undefined;
  }
  return undefined;
}

export function writeSessionCookie(
  reply: FastifyReply,
  input: { token: string; expiresAtMs: number; nowMs: number; isSecure: boolean },
): void {
  const maxAgeSeconds = Math.max(0, Math.round((input.expiresAtMs - input.nowMs) / 1000));
  const attributes = [
    `${sessionCookieName}=${input.token}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    `Expires=${new Date(input.expiresAtMs).toUTCString()}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(input.isSecure ? ['Secure'] : []),
  ];
  reply.header('set-cookie', attributes.join('; ')).header('cache-control', 'no-store');
}

export function clearSessionCookie(reply: FastifyReply, input: { isSecure: boolean }): void {
  const attributes = [
    `${sessionCookieName}=`,
    'Path=/',
    'Max-Age=0',
    'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    'HttpOnly',
    'SameSite=Lax',
    ...(input.isSecure ? ['Secure'] : []),
  ];
  reply.header('set-cookie', attributes.join('; ')).header('cache-control', 'no-store');
}
