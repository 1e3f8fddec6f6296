import type { Balance } from '../../../contract/balance.ts';
import { openDatabase } from '../../src/db/database.ts';
import { callApi, signIn } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { accountPassword, type CallOutcome, type FaultAccount } from './fault-burst.ts';

/**
 * How long a hold may outlive the call that took it: the lease of the hold design (docs/billing.md), 10 s, renewed
 * by its node every second; after a node dies, another node releases its holds once the lease ran out.
 */
export const holdLeaseMs = 10_000;

/** The figures of one scenario, printed after it, and the money rules it broke (empty when none). */
export type FaultReport = {
  calls: number;
  completed: number;
  charged: number;
  refused: number;
  /** How many calls ended with each HTTP status (`connection_error`: refused or cut before an answer). */
  statuses: Record<string, number>;
  cut: number;
  /** Streams cut after they had delivered content. */
  cutStreams: number;
  heldUsd: number;
  released: number;
  deliveredUnbilledTokens: number;
  /** Calls whose final charge superseded the checkpoint charge a reaping node had written (`usage:<id>:final`). */
  superseded: number;
  lowestBalanceUsd: number;
  broken: string[];
};

type Session = Awaited<ReturnType<typeof signIn>>;

/** Sum of what the accounts' holds still keep, read through one live node's account API. */
async function readHeldMicros(nodeUrl: string, sessions: readonly Session[]): Promise<number> {
  let held = 0;
  for (const session of sessions) {
    const response = await callApi(nodeUrl, '/api/balance', { session });
    if (response.status !== 200) throw new Error(`/api/balance answered ${response.status}: ${response.text}`);
    held += Math.round((response.json as Balance).held_usd * 1e6);
  }
  return held;
}

/** Waits (calls all ended) until nothing is held, or the lease plus a margin has passed; returns what is left. */
export async function waitForHoldsReleased(nodeUrl: string, accounts: readonly FaultAccount[]): Promise<number> {
  const deadline = Date.now() + holdLeaseMs + 5_000;
  // One session each: signing in on every poll would trip the sign-in throttle.
  const sessions: Session[] = [];
  for (const account of accounts)
    sessions.push(await signIn(nodeUrl, { email: account.email, password: accountPassword }));
  for (;;) {
    const held = await readHeldMicros(nodeUrl, sessions);
    if (held === 0 || Date.now() > deadline) return held;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

type UsageRow = { request_id: string; user_id: string; status: string; cost_micros: number; output_tokens: number };

/** Checks the money rules against the shared database after a scenario, and counts its figures. */
export async function checkMoney(input: {
  postgresUrl: string;
  accounts: readonly FaultAccount[];
  outcomes: readonly CallOutcome[];
  heldMicros: number;
}): Promise<FaultReport> {
  const database = openDatabase({ kind: 'postgres', url: input.postgresUrl });
  try {
    const db = database.db;
    const users = await db
      .selectFrom('users')
      .select(['id', 'email', 'balance_micros'])
      .where(
        'email',
        'in',
        input.accounts.map((account) => account.email),
      )
      .execute();
    const userIds = users.map((user) => user.id);
    const usage: UsageRow[] = await db
      .selectFrom('usage_records')
      .select(['request_id', 'user_id', 'status', 'cost_micros', 'output_tokens'])
      .where('user_id', 'in', userIds)
      .execute();
    const usageById = new Map(usage.map((row) => [row.request_id, row]));
    const debits = await db
      .selectFrom('ledger_transactions')
      .innerJoin('ledger_entries', 'ledger_entries.transaction_id', 'ledger_transactions.id')
      .select([
        'ledger_transactions.idempotency_key as key',
        'ledger_entries.account',
        'ledger_entries.amount_micros as amount',
      ])
      .where(
        'ledger_entries.account',
        'in',
        userIds.map((id) => `user:${id}`),
      )
      .where('ledger_transactions.kind', '=', 'usage')
      .execute();
    const debitsByKey = new Map<string, number[]>();
    for (const debit of debits)
      debitsByKey.set(debit.key, [...(debitsByKey.get(debit.key) ?? []), Number(debit.amount)]);

    const broken: string[] = [];
    const completed = input.outcomes.filter((outcome) => outcome.status === 200 && outcome.costUsd !== undefined);
    let charged = 0;
    for (const outcome of completed) {
      const costMicros = Math.round((outcome.costUsd ?? 0) * 1e6);
      const record = outcome.requestId === undefined ? undefined : usageById.get(outcome.requestId);
      // A final charge that superseded a reaper's checkpoint charge posts the difference under `…:final`.
      const entries = debitsByKey.get(`usage:${outcome.requestId}`) ?? [];
      const finalEntries = debitsByKey.get(`usage:${outcome.requestId}:final`) ?? [];
      const debited = -[...entries, ...finalEntries].reduce((sum, amount) => sum + amount, 0);
      const isCharged =
        record?.status === 'completed' &&
        record.cost_micros === costMicros &&
        entries.length <= 1 &&
        finalEntries.length <= 1 &&
        debited === costMicros;
      if (isCharged) charged += 1;
      else {
        broken.push(
          `completed call ${outcome.requestId} (usage.cost ${costMicros} micros): record ${record?.status ?? 'missing'} ` +
            `${record?.cost_micros ?? '-'} micros, ledger debits [${[...entries, ...finalEntries].join(', ')}]`,
        );
      }
    }
    for (const user of users) {
      const recorded = usage.filter((row) => row.user_id === user.id).reduce((sum, row) => sum + row.cost_micros, 0);
      const debited = debits
        .filter((debit) => debit.account === `user:${user.id}`)
        .reduce((sum, debit) => sum + Number(debit.amount), 0);
      if (recorded !== -debited)
        broken.push(`${user.email}: usage records ${recorded} micros, ledger debits ${-debited}`);
      if (Number(user.balance_micros) < 0)
        broken.push(`${user.email}: balance ${user.balance_micros} micros, below zero`);
    }
    try {
      await assertLedgerBalanced(db);
    } catch (error) {
      broken.push(`ledger invariant: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (input.heldMicros > 0) {
      broken.push(`${input.heldMicros} micros still held ${holdLeaseMs + 5_000} ms after the last call ended`);
    }
    const cutOutcomes = input.outcomes.filter((outcome) => outcome.deliveredChunks > 0);
    const deliveredUnbilledTokens = cutOutcomes.reduce((sum, outcome) => {
      const record = outcome.requestId === undefined ? undefined : usageById.get(outcome.requestId);
      return sum + Math.max(0, outcome.deliveredChunks - (record?.cost_micros ? record.output_tokens : 0));
    }, 0);
    return {
      calls: input.outcomes.length,
      completed: completed.length,
      charged,
      refused: input.outcomes.filter((outcome) => outcome.status === 402).length,
      statuses: countStatuses(input.outcomes),
      cut: input.outcomes.filter(
        (outcome) => outcome.status === 'connection_error' || (outcome.status === 200 && outcome.costUsd === undefined),
      ).length,
      cutStreams: cutOutcomes.length,
      heldUsd: input.heldMicros / 1e6,
      released: usage.filter((row) => row.cost_micros === 0).length,
      deliveredUnbilledTokens,
      superseded: [...debitsByKey.keys()].filter((key) => key.endsWith(':final')).length,
      lowestBalanceUsd: Math.min(...users.map((user) => Number(user.balance_micros))) / 1e6,
      broken,
    };
  } finally {
    await database.close();
  }
}

function countStatuses(outcomes: readonly CallOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[String(outcome.status)] = (counts[String(outcome.status)] ?? 0) + 1;
  return counts;
}
