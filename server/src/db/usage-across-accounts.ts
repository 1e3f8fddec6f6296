import { sql } from 'kysely';
import type { Database } from './database.ts';
import type { UsageRecordRow } from './schema.ts';

/** Which calls of every account to read: a half-open time range `[fromMs, toMs)`, a model, an account. */
export type OperatorUsageFilter = {
  fromMs?: number | undefined;
  toMs?: number | undefined;
  modelId?: string | undefined;
  userId?: string | undefined;
};

export type UsageRecordWithEmail = UsageRecordRow & { user_email: string };

/** Calls of every account, newest first; `after` continues below a row already seen (time, then request id). */
export async function listUsageAcrossAccounts(
  db: Database,
  input: { filter: OperatorUsageFilter; limit: number; after?: { createdAt: number; requestId: string } | undefined },
): Promise<UsageRecordWithEmail[]> {
  const { filter, after } = input;
  let query = db
    .selectFrom('usage_records')
    .innerJoin('users', 'users.id', 'usage_records.user_id')
    .selectAll('usage_records')
    .select('users.email as user_email');
  if (filter.fromMs !== undefined) query = query.where('usage_records.created_at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query = query.where('usage_records.created_at', '<', filter.toMs);
  if (filter.modelId !== undefined) query = query.where('usage_records.model_id', '=', filter.modelId);
  if (filter.userId !== undefined) query = query.where('usage_records.user_id', '=', filter.userId);
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

/** Totals of one model over a filter. */
export type ModelUsageTotals = {
  modelId: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  imageCount: number;
  costMicros: number;
  /** What the calls cost us upstream (calls without a recorded route cost count 0). */
  upstreamCostMicros: number;
};

/** Per model, the most charged first. */
export async function summarizeUsageByModel(db: Database, filter: OperatorUsageFilter): Promise<ModelUsageTotals[]> {
  let query = db
    .selectFrom('usage_records')
    .select([
      'model_id',
      sql<number>`count(*)`.as('requests'),
      sql<number>`sum(input_tokens)`.as('input_tokens'),
      sql<number>`sum(output_tokens)`.as('output_tokens'),
      sql<number>`sum(image_count)`.as('image_count'),
      sql<number>`sum(cost_micros)`.as('cost_micros'),
      sql<number>`coalesce(sum(upstream_cost_micros), 0)`.as('upstream_cost_micros'),
    ]);
  if (filter.fromMs !== undefined) query = query.where('created_at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query = query.where('created_at', '<', filter.toMs);
  if (filter.modelId !== undefined) query = query.where('model_id', '=', filter.modelId);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  const rows = await query
    .groupBy('model_id')
    .orderBy(sql`sum(cost_micros)`, 'desc')
    .orderBy('model_id')
    .execute();
  return rows.map((row) => ({
    modelId: row.model_id,
    requests: Number(row.requests),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    imageCount: Number(row.image_count),
    costMicros: Number(row.cost_micros),
    upstreamCostMicros: Number(row.upstream_cost_micros),
  }));
}
