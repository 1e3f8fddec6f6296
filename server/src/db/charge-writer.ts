import { sql, type CompiledQuery } from 'kysely';
import type { Database } from './database.ts';
import { chunk } from '../lib/chunk.ts';
import { assertBalanced, userIdOfLedgerAccount, type BalanceSnapshot } from './ledger.ts';
import type { JournaledCharge } from './settlement-journal.ts';
import type { SqliteWriterThread } from './sqlite-writer-thread.ts';
import { recordCharges, type ChargesOutcome } from './usage-records.ts';

/**
 * Writes groups of settled charges to the database. `lines` holds each charge's JSON (one `JSON.stringify(charge)`
 * each, as the settlement journal wrote it), so the SQLite writer thread's group is built without serialising the
 * charges a second time.
 */
export type ChargeWriter = {
  write: (charges: readonly JournaledCharge[], lines: readonly string[]) => Promise<ChargesOutcome>;
};

/** Rows per multi-row statement: well under both engines' limits on bound parameters (19 columns a usage row). */
const rowsPerStatement = 256;

/**
 * What the SQLite writer thread gets for a group (as JSON): the charges, and the sums of the balance and key spend
 * updates, so the thread only inserts and updates what it is given.
 */
export type ChargeGroupText = {
  charges: readonly JournaledCharge[];
  balances: [userId: string, amountMicros: number][];
  spends: [keyId: string, costMicros: number, lastUsedAt: number][];
};

/**
 * Group commit in a fixed list of statements with no reads in between: the ledger transactions, their entries, one
 * balance update per user (returning the balance and its version), the usage rows, one spend update per key, as one
 * transaction. On SQLite the writer thread builds and runs them from the group's JSON (the event loop only sums and
 * serialises); on PostgreSQL they are compiled here and run through the pool. It assumes every charge is new, as
 * every charge of a running node is; a charge settled before (a replay) breaks a unique key, the transaction rolls
 * back, and the group is written again by `recordCharges`, which skips what exists.
 */
export function createChargeWriter(deps: { db: Database; writerThread: SqliteWriterThread | undefined }): ChargeWriter {
  return {
    write: async (charges, lines) => {
      if (charges.length === 0) return { isNew: [], balances: [] };
      for (const { ledger } of charges) assertBalanced(ledger);
      if (lines.length !== charges.length)
        throw new Error(`${lines.length} journal lines for ${charges.length} charges`);
      try {
        const balances = await writeGroup(deps, charges, lines);
        return { isNew: charges.map(() => true), balances };
      } catch {
        return recordCharges(deps.db, charges);
      }
    },
  };
}

async function writeGroup(
  deps: { db: Database; writerThread: SqliteWriterThread | undefined },
  charges: readonly JournaledCharge[],
  lines: readonly string[],
): Promise<BalanceSnapshot[]> {
  if (deps.writerThread) {
    const sums: Omit<ChargeGroupText, 'charges'> = {
      balances: [...sumUserEntries(charges.flatMap(({ ledger }) => ledgerEntryRows(ledger)))],
      spends: [...sumKeySpend(charges)].map(([keyId, spend]) => [keyId, spend.costMicros, spend.lastUsedAt]),
    };
    // The same text as JSON.stringify({ charges, ...sums }), with the charges' JSON taken from the journal's lines.
    const text = `{"charges":[${lines.join(',')}],"balances":${JSON.stringify(sums.balances)},"spends":${JSON.stringify(sums.spends)}}`;
    const rows = await deps.writerThread.writeCharges(text);
    return rows.map((row) => toBalanceSnapshot(row));
  }
  const group = compileChargeGroup(deps.db, charges);
  const results = await runStatements(deps.db, group.statements);
  return group.balanceStatementIndexes.flatMap((index) => (results[index] ?? []).map((row) => toBalanceSnapshot(row)));
}

/** A transaction's entries as `ledger_entries` rows; zero amounts are not written. */
function ledgerEntryRows(ledger: JournaledCharge['ledger']) {
  return ledger.entries
    .filter((entry) => entry.amountMicros !== 0)
    .map((entry) => ({ transaction_id: ledger.id, account: entry.account, amount_micros: entry.amountMicros }));
}

type ChargeGroup = { statements: CompiledQuery[]; balanceStatementIndexes: number[] };

function compileChargeGroup(db: Database, charges: readonly JournaledCharge[]): ChargeGroup {
  const statements: CompiledQuery[] = [];
  for (const part of chunk(charges, rowsPerStatement)) {
    const rows = part.map(({ ledger }) => ({
      id: ledger.id,
      idempotency_key: ledger.idempotencyKey,
      kind: ledger.kind,
      reason: ledger.reason,
      created_at: ledger.createdAt,
    }));
    statements.push(db.insertInto('ledger_transactions').values(rows).compile());
  }
  const entries = charges.flatMap(({ ledger }) => ledgerEntryRows(ledger));
  for (const part of chunk(entries, rowsPerStatement)) {
    statements.push(db.insertInto('ledger_entries').values(part).compile());
  }
  const balanceStatementIndexes: number[] = [];
  for (const [userId, amountMicros] of sumUserEntries(entries)) {
    balanceStatementIndexes.push(statements.length);
    statements.push(
      db
        .updateTable('users')
        .set({
          balance_micros: sql<number>`balance_micros + ${amountMicros}`,
          balance_version: sql<number>`balance_version + 1`,
        })
        .where('id', '=', userId)
        .returning(['id', 'balance_micros', 'balance_version'])
        .compile(),
    );
  }
  for (const part of chunk(charges, rowsPerStatement)) {
    statements.push(
      db
        .insertInto('usage_records')
        .values(part.map((charge) => charge.usage))
        .compile(),
    );
  }
  for (const [keyId, spend] of sumKeySpend(charges)) {
    statements.push(
      db
        .updateTable('api_keys')
        .set({ spent_micros: sql<number>`spent_micros + ${spend.costMicros}`, last_used_at: spend.lastUsedAt })
        .where('id', '=', keyId)
        .compile(),
    );
  }
  return { statements, balanceStatementIndexes };
}

async function runStatements(db: Database, statements: readonly CompiledQuery[]): Promise<unknown[][]> {
  return db.transaction().execute(async (trx) => {
    const results: unknown[][] = [];
    for (const statement of statements) results.push([...(await trx.executeQuery(statement)).rows]);
    return results;
  });
}

function toBalanceSnapshot(row: unknown): BalanceSnapshot {
  const { id, balance_micros, balance_version } = row as {
    id: string;
    balance_micros: number;
    balance_version: number;
  };
  return { userId: id, balanceMicros: Number(balance_micros), version: Number(balance_version) };
}

function sumUserEntries(entries: readonly { account: string; amount_micros: number }[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const entry of entries) {
    const userId = userIdOfLedgerAccount(entry.account);
    if (userId === undefined) continue;
    totals.set(userId, (totals.get(userId) ?? 0) + entry.amount_micros);
  }
  return totals;
}

function sumKeySpend(charges: readonly JournaledCharge[]): Map<string, { costMicros: number; lastUsedAt: number }> {
  const spend = new Map<string, { costMicros: number; lastUsedAt: number }>();
  for (const { usage } of charges) {
    if (usage.api_key_id === null) continue;
    const known = spend.get(usage.api_key_id);
    spend.set(usage.api_key_id, {
      costMicros: (known?.costMicros ?? 0) + usage.cost_micros,
      lastUsedAt: Math.max(known?.lastUsedAt ?? 0, usage.created_at),
    });
  }
  return spend;
}
