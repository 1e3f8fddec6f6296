import type { Selectable, Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DatabaseSchema, PaymentProviderEventsTable } from './schema.ts';

export type PaymentProviderEventRow = Selectable<PaymentProviderEventsTable>;

/** Records a handled notification fact once; false when its key was already recorded (a re-delivery). */
export async function insertPaymentProviderEvent(
  db: Database | Transaction<DatabaseSchema>,
  row: PaymentProviderEventRow,
): Promise<boolean> {
  const result = await db
    .insertInto('payment_provider_events')
    .values(row)
    .onConflict((conflict) => conflict.columns(['provider', 'event_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findPaymentProviderEvent(
  db: Database,
  input: { provider: string; eventKey: string },
): Promise<PaymentProviderEventRow | undefined> {
  return db
    .selectFrom('payment_provider_events')
    .selectAll()
    .where('provider', '=', input.provider)
    .where('event_key', '=', input.eventKey)
    .executeTakeFirst();
}
