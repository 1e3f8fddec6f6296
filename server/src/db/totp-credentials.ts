import type { Database } from './database.ts';
import type { TotpCredentialRow } from './schema.ts';

export async function findTotpCredential(db: Database, userId: string): Promise<TotpCredentialRow | undefined> {
  return db.selectFrom('totp_credentials').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Starts (or restarts) an enrolment: a new unconfirmed secret, the old recovery codes gone. */
export async function replaceTotpCredential(
  db: Database,
  input: { userId: string; secretCiphertext: string; createdAt: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('totp_credentials').where('user_id', '=', input.userId).execute();
    await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', input.userId).execute();
    await trx
      .insertInto('totp_credentials')
      .values({
        user_id: input.userId,
        secret_ciphertext: input.secretCiphertext,
        created_at: input.createdAt,
        confirmed_at: null,
        last_time_step: null,
      })
      .execute();
  });
}

/** Confirms the enrolment with its first code's time step and stores the recovery codes' hashes, in one go. */
export async function confirmTotpCredential(
  db: Database,
  input: { userId: string; confirmedAt: number; timeStep: number; recoveryCodeHashes: readonly string[] },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('totp_credentials')
      .set({ confirmed_at: input.confirmedAt, last_time_step: input.timeStep })
      .where('user_id', '=', input.userId)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('totp_recovery_codes')
      .values(input.recoveryCodeHashes.map((hash) => ({ user_id: input.userId, code_hash: hash, used_at: null })))
      .execute();
    return true;
  });
}

/** Takes a time step for a code, only if it is later than the last one used: a conditional update, so a replayed code fails. */
export async function takeTotpTimeStep(db: Database, input: { userId: string; timeStep: number }): Promise<boolean> {
  const result = await db
    .updateTable('totp_credentials')
    .set({ last_time_step: input.timeStep })
    .where('user_id', '=', input.userId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', input.timeStep)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Uses a recovery code once; false when it is unknown or spent. */
export async function useTotpRecoveryCode(
  db: Database,
  input: { userId: string; codeHash: string; usedAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('totp_recovery_codes')
    .set({ used_at: input.usedAt })
    .where('user_id', '=', input.userId)
    .where('code_hash', '=', input.codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('totp_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Removes a user's second factor (a locked-out operator, reset from the CLI); their sessions must pass it again. */
export async function deleteTotpCredential(db: Database, userId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('totp_credentials').where('user_id', '=', userId).executeTakeFirst();
    await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('session_second_factors').where('user_id', '=', userId).execute();
    return Number(result.numDeletedRows) > 0;
  });
}

export async function markSessionSecondFactor(
  db: Database,
  input: { sessionId: string; userId: string; verifiedAt: number },
): Promise<void> {
  await db
    .insertInto('session_second_factors')
    .values({ session_id: input.sessionId, user_id: input.userId, verified_at: input.verifiedAt })
    .onConflict((conflict) => conflict.column('session_id').doNothing())
    .execute();
}

export async function hasSessionSecondFactor(db: Database, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('session_second_factors')
    .select('session_id')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row !== undefined;
}
