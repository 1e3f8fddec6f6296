import type { FastifyInstance } from 'fastify';
import { getBalance } from '../../accounts/get-balance.ts';
import type { HeldCredits } from '../../accounts/get-balance-micros.ts';
import type { Database } from '../../db/database.ts';
import type { SessionGuard } from '../middleware/session.ts';

export type BalanceRouteDeps = { db: Database; creditHolds: HeldCredits; sessions: SessionGuard };

/** `GET /api/balance`: balance, held, available and the latest ledger entries of the signed-in account. */
export function registerBalanceRoutes(app: FastifyInstance, deps: BalanceRouteDeps): void {
  app.get('/api/balance', async (request) => getBalance(deps, deps.sessions.requireSession(request).userId));
}
