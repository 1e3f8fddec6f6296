import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getCredits } from '../../accounts/get-credits.ts';
import { getKeyInfo } from '../../accounts/get-key-info.ts';
import type { Database } from '../../db/database.ts';
import { authenticate, type AuthenticateDeps } from '../../pipeline/authenticate.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';

export type KeyInfoRouteDeps = AuthenticateDeps & { db: Database; defaultRequestsPerMinute: number };

/** OpenRouter-compatible `GET /v1/key` (also `/v1/auth/key`) and `GET /v1/credits`, with the API key. */
export function registerKeyInfoRoutes(app: FastifyInstance, deps: KeyInfoRouteDeps): void {
  const keyInfo = async (request: FastifyRequest) =>
    getKeyInfo(deps, (await authenticate(deps, readAuthHeaders(request))).key);
  app.get('/v1/key', keyInfo);
  app.get('/v1/auth/key', keyInfo);
  app.get('/v1/credits', async (request) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    return getCredits(deps, caller.userId);
  });
}
