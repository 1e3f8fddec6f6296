import type { Selectable, Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DatabaseSchema, TopUpOrderTransitionsTable } from './schema.ts';

export type TopUpOrderTransitionRow = Selectable<TopUpOrderTransitionsTable>;

/** Appends a transition as the order's next one; the caller holds the order's lock (or has just created it). */
export async function insertTopUpOrderTransition(
  db: Database | Transaction<DatabaseSchema>,
  row: Omit<TopUpOrderTransitionRow, 'sequence'>,
): Promise<void> {
  const previous = await db
    .selectFrom('top_up_order_transitions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('order_id', '=', row.order_id)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('top_up_order_transitions')
    .values({ ...row, sequence: Number(previous.count) })
    .execute();
}

/** An order's transitions, oldest first. */
export async function listTopUpOrderTransitions(db: Database, orderId: string): Promise<TopUpOrderTransitionRow[]> {
  return db
    .selectFrom('top_up_order_transitions')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('sequence', 'asc')
    .execute();
}
