import type { Transaction, Updateable } from 'kysely';
import type { Database } from './database.ts';
import type { DatabaseSchema, NewTopUpOrderRow, TopUpOrderRow, TopUpOrderStatus, TopUpOrdersTable } from './schema.ts';

export async function insertTopUpOrder(
  db: Database | Transaction<DatabaseSchema>,
  row: NewTopUpOrderRow,
): Promise<void> {
  await db.insertInto('top_up_orders').values(row).execute();
}

export async function findTopUpOrder(db: Database, id: string): Promise<TopUpOrderRow | undefined> {
  return db.selectFrom('top_up_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findTopUpOrderByProviderPayment(
  db: Database,
  input: { provider: string; providerPaymentId: string },
): Promise<TopUpOrderRow | undefined> {
  return db
    .selectFrom('top_up_orders')
    .selectAll()
    .where('provider', '=', input.provider)
    .where('provider_payment_id', '=', input.providerPaymentId)
    .executeTakeFirst();
}

/**
 * Reads an order inside a transaction and keeps it to this transaction until it ends: an UPDATE that changes nothing
 * takes PostgreSQL's row lock (a concurrent locker waits, then reads the committed row); SQLite has one writer at a
 * time anyway. Portable where `SELECT … FOR UPDATE` is not (SQLite has no such clause).
 */
export async function lockTopUpOrder(trx: Transaction<DatabaseSchema>, id: string): Promise<TopUpOrderRow | undefined> {
  return trx
    .updateTable('top_up_orders')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export type TopUpOrderChanges = Omit<Updateable<TopUpOrdersTable>, 'id' | 'user_id' | 'created_at'>;

export async function updateTopUpOrder(
  db: Database | Transaction<DatabaseSchema>,
  input: { id: string; changes: TopUpOrderChanges },
): Promise<void> {
  await db.updateTable('top_up_orders').set(input.changes).where('id', '=', input.id).execute();
}

export type TopUpOrderFilter = {
  userId?: string | undefined;
  provider?: string | undefined;
  method?: string | undefined;
  statuses?: readonly TopUpOrderStatus[] | undefined;
  createdFrom?: number | undefined;
  createdBefore?: number | undefined;
  /** Orders created strictly before this one in the listing order (created_at, id), for paging. */
  before?: { createdAt: number; id: string } | undefined;
  limit: number;
};

/** Orders newest first, filtered; each filter is optional. */
export async function listTopUpOrders(db: Database, filter: TopUpOrderFilter): Promise<TopUpOrderRow[]> {
  let query = db.selectFrom('top_up_orders').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.provider !== undefined) query = query.where('provider', '=', filter.provider);
  if (filter.method !== undefined) query = query.where('method', '=', filter.method);
  if (filter.statuses !== undefined && filter.statuses.length > 0) {
    query = query.where('status', 'in', [...filter.statuses]);
  }
  if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdBefore !== undefined) query = query.where('created_at', '<', filter.createdBefore);
  const before = filter.before;
  if (before !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', before.createdAt),
        eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** Orders still waiting for the provider (created or pending), oldest first: what reconciliation polls. */
/** Partly paid orders created since `createdFrom`, oldest first: the rest of their payment may still arrive. */
export async function listPartlyPaidTopUpOrders(
  db: Database,
  input: { createdFrom: number; limit: number },
): Promise<TopUpOrderRow[]> {
  return db
    .selectFrom('top_up_orders')
    .selectAll()
    .where('status', '=', 'partially_paid')
    .where('created_at', '>=', input.createdFrom)
    .orderBy('created_at', 'asc')
    .limit(input.limit)
    .execute();
}

export async function listUnsettledTopUpOrders(db: Database, input: { limit: number }): Promise<TopUpOrderRow[]> {
  return db
    .selectFrom('top_up_orders')
    .selectAll()
    .where('status', 'in', ['created', 'pending'])
    .orderBy('created_at', 'asc')
    .limit(input.limit)
    .execute();
}
