import type { Me } from '../../../contract/auth.ts';
import type { Database } from '../db/database.ts';
import { countSessionsOfUser } from '../db/sessions.ts';
import { microsToUsd } from '../lib/money.ts';
import { getBalanceMicros, type HeldCredits } from './get-balance-micros.ts';

export type GetAccountDeps = { db: Database; creditHolds: HeldCredits };

/**
 * The signed-in account as `GET /api/me` shows it, with the session's CSRF token, and whether this is the account's
 * first session: the website greets an account created elsewhere (the CLI, the operator) on its first sign-in too.
 */
export async function getAccount(deps: GetAccountDeps, session: { userId: string; csrfToken: string }): Promise<Me> {
  const { user, balanceMicros, availableMicros } = await getBalanceMicros(deps, session.userId);
  const sessionCount = await countSessionsOfUser(deps.db, { userId: session.userId, atMost: 2 });
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    balance_usd: microsToUsd(balanceMicros),
    available_usd: microsToUsd(availableMicros),
    created_at: new Date(user.created_at).toISOString(),
    csrf_token: session.csrfToken,
    is_first_session: sessionCount <= 1,
    email_verified: user.email_verified_at !== null,
  };
}
