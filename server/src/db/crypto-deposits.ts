import { sql, type Insertable, type Transaction } from 'kysely';
import type { Database } from './database.ts';
import type {
  CryptoDepositRow,
  CryptoDepositTransferRow,
  CryptoDepositsTable,
  DatabaseSchema,
  TopUpOrderRow,
} from './schema.ts';

type Db = Database | Transaction<DatabaseSchema>;

export async function insertCryptoDeposit(db: Db, row: Insertable<CryptoDepositsTable>): Promise<void> {
  await db.insertInto('crypto_deposits').values(row).execute();
}

export async function findCryptoDeposit(db: Db, orderId: string): Promise<CryptoDepositRow | undefined> {
  return db.selectFrom('crypto_deposits').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

/** The next unused derivation index of a way (0 for the first order); the unique index refuses a duplicate. */
export async function nextDerivationIndex(db: Db, way: string): Promise<number> {
  const row = await db
    .selectFrom('crypto_deposits')
    .select(sql<number | null>`max(derivation_index)`.as('highest'))
    .where('way', '=', way)
    .executeTakeFirst();
  return row?.highest === null || row?.highest === undefined ? 0 : Number(row.highest) + 1;
}

export async function addReceivedMicroUsdt(db: Db, input: { orderId: string; microUsdt: number }): Promise<void> {
  await db
    .updateTable('crypto_deposits')
    .set({ received_micro_usdt: sql<number>`received_micro_usdt + ${input.microUsdt}` })
    .where('order_id', '=', input.orderId)
    .execute();
}

/** Remembers the latest transfer seen on chain but not yet confirmed (the order page says "seen"). */
export async function markDepositSeen(db: Db, input: { orderId: string; txId: string; at: number }): Promise<void> {
  await db
    .updateTable('crypto_deposits')
    .set({ seen_tx_id: input.txId, seen_at: input.at })
    .where('order_id', '=', input.orderId)
    .execute();
}

/** Records a credited transfer once; false when its key was already recorded. */
export async function insertCryptoDepositTransfer(db: Db, row: CryptoDepositTransferRow): Promise<boolean> {
  const result = await db
    .insertInto('crypto_deposit_transfers')
    .values(row)
    .onConflict((conflict) => conflict.columns(['way', 'transfer_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function listCryptoDepositTransfers(db: Db, orderId: string): Promise<CryptoDepositTransferRow[]> {
  return db
    .selectFrom('crypto_deposit_transfers')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('credited_at')
    .orderBy('transfer_key')
    .execute();
}

/** The orders of a way that may still receive a transfer: created after `since`, whatever their status. */
export async function listWatchedDeposits(
  db: Db,
  input: { way: string; since: number; limit: number },
): Promise<Array<{ order: TopUpOrderRow; deposit: CryptoDepositRow }>> {
  const deposits = await db
    .selectFrom('crypto_deposits')
    .selectAll()
    .where('way', '=', input.way)
    .where('created_at', '>=', input.since)
    .orderBy('created_at')
    .limit(input.limit)
    .execute();
  if (deposits.length === 0) return [];
  const orderIds = deposits.map((deposit) => deposit.order_id);
  const orders = await db.selectFrom('top_up_orders').selectAll().where('id', 'in', orderIds).execute();
  const byId = new Map(orders.map((order) => [order.id, order]));
  return deposits.flatMap((deposit) => {
    const order = byId.get(deposit.order_id);
    return order ? [{ order, deposit }] : [];
  });
}
