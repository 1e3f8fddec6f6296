import { sql } from 'kysely';
import type { Database } from './database.ts';
import { writeLedgerTransactionWithBalances, type BalanceSnapshot } from './ledger.ts';
import type { JournaledCharge } from './settlement-journal.ts';
import type { UsageRecordRow } from './schema.ts';
import { supersedeCheckpointCharge } from './supersede-checkpoint-charge.ts';

/**
 * What writing a group of charges did: which changed what the call is charged (new, or a final charge superseding a
 * checkpoint charge), and the balances they left.
 */
export type ChargesOutcome = { isNew: boolean[]; balances: BalanceSnapshot[] };

/**
 * Writes charges one by one in one transaction, each skipped when its ledger key exists (a replayed journal, a
 * retried group), unless it is a call's final charge meeting a checkpoint charge of the same call, which it
 * supersedes (`supersede-checkpoint-charge.ts`): the careful path behind `charge-writer.ts`, which writes a running
 * node's groups in bulk and falls back to this one when a charge's key exists.
 */
export async function recordCharges(db: Database, charges: readonly JournaledCharge[]): Promise<ChargesOutcome> {
  return db.transaction().execute(async (trx) => {
    const isNew: boolean[] = [];
    const balances: BalanceSnapshot[] = [];
    for (const charge of charges) {
      const written = await writeLedgerTransactionWithBalances(trx, charge.ledger);
      if (!written) {
        const superseded = await supersedeCheckpointCharge(trx, charge);
        isNew.push(superseded !== undefined);
        balances.push(...(superseded ?? []));
        continue;
      }
      isNew.push(true);
      balances.push(...written);
      await trx
        .insertInto('usage_records')
        .values(charge.usage)
        .onConflict((conflict) => conflict.column('request_id').doNothing())
        .execute();
      if (charge.usage.api_key_id !== null) {
        await trx
          .updateTable('api_keys')
          .set({
            spent_micros: sql<number>`spent_micros + ${charge.usage.cost_micros}`,
            last_used_at: charge.usage.created_at,
          })
          .where('id', '=', charge.usage.api_key_id)
          .execute();
      }
    }
    return { isNew, balances };
  });
}

/** One call's charge, written on its own; returns false when this request was already settled. */
export async function recordCharge(db: Database, charge: JournaledCharge): Promise<boolean> {
  return (await recordCharges(db, [charge])).isNew[0] ?? false;
}

export async function findUsageRecord(db: Database, requestId: string): Promise<UsageRecordRow | undefined> {
  return db.selectFrom('usage_records').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}

/** A usage row with the name of the key that made the call (null when the key is gone or none was used). */
export type UsageRecordWithKeyName = UsageRecordRow & { api_key_name: string | null };

/** Which of a user's usage rows to read: a half-open time range `[fromMs, toMs)`, a model, a key. */
export type UsageFilter = {
  userId: string;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  modelId?: string | undefined;
  apiKeyId?: string | undefined;
};

/** Newest first; `after` continues below a row already seen (keyset pagination by time, then request id). */
export async function listUsageRecords(
  db: Database,
  input: { filter: UsageFilter; limit: number; after?: { createdAt: number; requestId: string } | undefined },
): Promise<UsageRecordWithKeyName[]> {
  const { filter, after } = input;
  let query = db
    .selectFrom('usage_records')
    .leftJoin('api_keys', 'api_keys.id', 'usage_records.api_key_id')
    .selectAll('usage_records')
    .select('api_keys.name as api_key_name')
    .where('usage_records.user_id', '=', filter.userId);
  if (filter.fromMs !== undefined) query = query.where('usage_records.created_at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query = query.where('usage_records.created_at', '<', filter.toMs);
  if (filter.modelId !== undefined) query = query.where('usage_records.model_id', '=', filter.modelId);
  if (filter.apiKeyId !== undefined) query = query.where('usage_records.api_key_id', '=', filter.apiKeyId);
  if (after) {
    query = query.where((where) =>
      where.or([
        where('usage_records.created_at', '<', after.createdAt),
        where.and([
          where('usage_records.created_at', '=', after.createdAt),
          where('usage_records.request_id', '<', after.requestId),
        ]),
      ]),
    );
  }
  return query
    .orderBy('usage_records.created_at', 'desc')
    .orderBy('usage_records.request_id', 'desc')
    .limit(input.limit)
    .execute();
}

/** Totals of one UTC day and one model. */
export type DailyUsage = {
  dayNumber: number;
  modelId: string;
  requests: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  imageCount: number;
  costMicros: number;
};

const msPerDay = 86_400_000;

/** Per UTC day (days since the Unix epoch) and model, oldest day first. */
export async function summarizeDailyUsage(db: Database, filter: UsageFilter): Promise<DailyUsage[]> {
  const day = sql<number>`created_at / ${sql.lit(msPerDay)}`;
  let query = db
    .selectFrom('usage_records')
    .select([
      day.as('day_number'),
      'model_id',
      sql<number>`count(*)`.as('requests'),
      sql<number>`sum(input_tokens)`.as('input_tokens'),
      sql<number>`sum(cached_tokens)`.as('cached_tokens'),
      sql<number>`sum(output_tokens)`.as('output_tokens'),
      sql<number>`sum(reasoning_tokens)`.as('reasoning_tokens'),
      sql<number>`sum(image_count)`.as('image_count'),
      sql<number>`sum(cost_micros)`.as('cost_micros'),
    ])
    .where('user_id', '=', filter.userId);
  if (filter.fromMs !== undefined) query = query.where('created_at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query = query.where('created_at', '<', filter.toMs);
  if (filter.modelId !== undefined) query = query.where('model_id', '=', filter.modelId);
  if (filter.apiKeyId !== undefined) query = query.where('api_key_id', '=', filter.apiKeyId);
  const rows = await query.groupBy([day, 'model_id']).orderBy(day).orderBy('model_id').execute();
  return rows.map((row) => ({
    dayNumber: Number(row.day_number),
    modelId: row.model_id,
    requests: Number(row.requests),
    inputTokens: Number(row.input_tokens),
    cachedTokens: Number(row.cached_tokens),
    outputTokens: Number(row.output_tokens),
    reasoningTokens: Number(row.reasoning_tokens),
    imageCount: Number(row.image_count),
    costMicros: Number(row.cost_micros),
  }));
}

/** A call that failed before any output: a usage row with no charge, so operators see it (idempotent by request). */
export async function recordFailedCall(db: Database, usage: UsageRecordRow): Promise<void> {
  await db
    .insertInto('usage_records')
    .values(usage)
    .onConflict((conflict) => conflict.column('request_id').doNothing())
    .execute();
}
