import { createHash } from 'node:crypto';
import {
  findAccountTokenByHash,
  insertAccountToken,
  markAccountTokenUsed,
  voidAccountTokens,
  type AccountTokenPurpose,
} from '../db/account-tokens.ts';
import type { Database } from '../db/database.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';

export type AccountLinkDeps = { db: Database; clock: Clock; ids: IdGenerator };

/** The page each link opens in the web app; the token rides in the query. */
const linkPaths = { verify_email: '/verify-email', reset_password: '/reset-password' } as const satisfies Record<
  AccountTokenPurpose,
  string
>;

/**
 * A new single-use link: 32 random bytes that only the mail carries; the database keeps their SHA-256. Earlier unused
 * links of the same purpose stop working, so only the newest mail counts.
 */
export async function issueAccountLink(
  deps: AccountLinkDeps,
  input: { userId: string; purpose: AccountTokenPurpose; ttlMs: number; publicBaseUrl: string },
): Promise<string> {
  const token = deps.ids.randomToken(32);
  const nowMs = deps.clock.nowMs();
  await deps.db.transaction().execute(async (trx) => {
    await voidAccountTokens(trx, { userId: input.userId, purpose: input.purpose, usedAt: nowMs });
    await insertAccountToken(trx, {
      id: deps.ids.newId('atk_'),
      user_id: input.userId,
      purpose: input.purpose,
      token_hash: hashLinkToken(token),
      created_at: nowMs,
      expires_at: nowMs + input.ttlMs,
      used_at: null,
    });
  });
  return `${input.publicBaseUrl}${linkPaths[input.purpose]}?token=${encodeURIComponent(token)}`;
}

/**
 * Uses a link's token once: the account it belongs to, or a 400 that says whether the link is unknown, expired or
 * already used. Two clicks at once: one wins, the other hears "already used".
 */
export async function consumeAccountLink(
  deps: AccountLinkDeps,
  input: { token: string; purpose: AccountTokenPurpose },
): Promise<{ userId: string }> {
  const row = await findAccountTokenByHash(deps.db, { tokenHash: hashLinkToken(input.token), purpose: input.purpose });
  if (!row) {
    throw new InvalidRequestError('This link is not valid. Ask for a new one.', {
      param: 'token',
      code: 'invalid_link',
    });
  }
  const nowMs = deps.clock.nowMs();
  if (row.used_at !== null) throw usedLinkError();
  if (row.expires_at <= nowMs) {
    throw new InvalidRequestError('This link has expired. Ask for a new one.', {
      param: 'token',
      code: 'link_expired',
    });
  }
  if (!(await markAccountTokenUsed(deps.db, { id: row.id, usedAt: nowMs }))) throw usedLinkError();
  return { userId: row.user_id };
}

function usedLinkError(): InvalidRequestError {
  return new InvalidRequestError('This link was already used. Ask for a new one if you still need it.', {
    param: 'token',
    code: 'link_used',
  });
}

function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
