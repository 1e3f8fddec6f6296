import type { Selectable, Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DatabaseSchema, TopUpOrderTransitionsTable } from './schema.ts';

export type TopUpOrderTransitionRow = Selectable<TopUpOrderTransitionsTable>;

export async function insertTopUpOrderTransition(
  db: Database | Transaction<DatabaseSchema>,
  row: TopUpOrderTransitionRow,
): Promise<void> {
  await db.insertInto('top_up_order_transitions').values(row).execute();
}

/** An order's transitions, oldest first. */
export async function listTopUpOrderTransitions(db: Database, orderId: string): Promise<TopUpOrderTransitionRow[]> {
  return db
    .selectFrom('top_up_order_transitions')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}
