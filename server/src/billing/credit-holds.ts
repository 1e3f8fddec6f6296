import type { Database } from '../db/database.ts';
import type { BalanceSnapshot } from '../db/ledger.ts';
import type { JournaledCharge } from '../db/settlement-journal.ts';
import { listBalanceSnapshots } from '../db/users.ts';
import { createSingleFlight } from '../lib/single-flight.ts';
import type { DeliveryCheckpoints } from './delivery-checkpoints.ts';

/**
 * Money set aside for one call before the upstream is asked; captured or released when the call ends. `holdId` is
 * unique per reservation (the caller's id with a sequence number), so two reservations can never be confused; a hold
 * is captured or released once, and a second capture or release of the same hold changes nothing.
 */
export type CreditHold = { holdId: string; userId: string; heldMicros: number };

/** Charges of one user that reached the database in one commit, and the balance that commit left. */
export type CommittedCharges = {
  userId: string;
  capturedMicros: number;
  balance: BalanceSnapshot | undefined;
  /** The holds whose charges these are (their copies kept for recovery by another node can go). */
  holdIds?: readonly string[];
};

/**
 * What an account can spend: its balance in the database, less the holds of calls in flight, less the charges that
 * are journaled but not yet written to the database (pending). Every operation that takes credit checks and takes it
 * in one atomic step (one synchronous block in memory, one Lua script in Redis), so no interleaving of concurrent
 * requests, on one node or many, can overdraw. Balances read from the database carry a version and apply only when
 * newer than the one held, so a stale read never overwrites a newer balance (docs/billing.md).
 */
export type CreditHolds = {
  /** Holds `desiredMicros`, or less but at least `minimumMicros`; undefined when even the minimum is not there. */
  reserve: (input: {
    userId: string;
    holdId: string;
    desiredMicros: number;
    minimumMicros: number;
  }) => Promise<CreditHold | undefined>;
  /**
   * The call's charge is in the settlement journal: the hold becomes a pending charge of `capturedMicros`. False when
   * the hold was already closed (nothing became pending). With several nodes the charge is kept beside the pending
   * amount until it is in the database, so that another node can write it if this one dies.
   */
  capture: (hold: CreditHold, capturedMicros: number, charge?: JournaledCharge) => Promise<boolean>;
  /** Journaled charges reached the database: they stop being pending and the balances of that commit apply. */
  applyCommitted: (charges: readonly CommittedCharges[]) => Promise<void>;
  /** The call ends without a charge. */
  release: (hold: CreditHold) => Promise<void>;
  /** This node committed a ledger change for the hold's owner itself (a subscription, an adjustment): reload the
   * balance, then free the hold. */
  settleCommitted: (hold: CreditHold) => Promise<void>;
  /** Balance less holds and pending charges. */
  availableMicros: (userId: string) => Promise<number>;
  /** Re-reads the balances of every known account (after a top-up, adjustment or another node's charge). */
  refresh: () => Promise<void>;
  /**
   * With several nodes: what a stream delivered so far, as the charge to write if this node dies before settling it.
   * Kept where any node can read it, at most `checkpointIntervalMs` late; the reaper of a dead node writes it.
   */
  recordDelivery?: (hold: CreditHold, charge: () => JournaledCharge) => void;
};

type AccountState = { balanceMicros: number; version: number; heldMicros: number; pendingMicros: number };

/**
 * Credit holds of a single gateway node, in memory: a crash releases them by construction. Its streams' deliveries
 * are checkpointed to `deliveries` (a local file), which the next start bills.
 */
export function createMemoryCreditHolds(deps: { db: Database; deliveries?: DeliveryCheckpoints }): CreditHolds {
  const accounts = new Map<string, AccountState>();
  const loadOnce = createSingleFlight<AccountState>();
  const openHolds = new Set<string>();
  let holdSequence = 0;

  const apply = (snapshot: BalanceSnapshot) => {
    const state = accounts.get(snapshot.userId);
    if (!state || snapshot.version <= state.version) return;
    state.balanceMicros = snapshot.balanceMicros;
    state.version = snapshot.version;
  };

  const load = (userId: string): Promise<AccountState> => {
    const cached = accounts.get(userId);
    if (cached) return Promise.resolve(cached);
    return loadOnce(userId, async () => {
      const [snapshot] = await listBalanceSnapshots(deps.db, [userId]);
      const state = accounts.get(userId) ?? {
        balanceMicros: snapshot?.balanceMicros ?? 0,
        version: snapshot?.version ?? 0,
        heldMicros: 0,
        pendingMicros: 0,
      };
      accounts.set(userId, state);
      return state;
    });
  };

  const reload = async (userIds: readonly string[]) => {
    for (const snapshot of await listBalanceSnapshots(deps.db, userIds)) apply(snapshot);
  };

  /** True when the hold was still open: it is closed now, and its amount leaves the account's holds. */
  const close = (hold: CreditHold): boolean => {
    if (!openHolds.delete(hold.holdId)) return false;
    deps.deliveries?.forget(hold.holdId);
    const state = accounts.get(hold.userId);
    if (state) state.heldMicros -= hold.heldMicros;
    return true;
  };

  return {
    reserve: async (input) => {
      const state = await load(input.userId);
      const available = state.balanceMicros - state.heldMicros - state.pendingMicros;
      if (available < input.minimumMicros) return undefined;
      const heldMicros = Math.min(input.desiredMicros, available);
      state.heldMicros += heldMicros;
      holdSequence += 1;
      const holdId = `${input.holdId}#${holdSequence}`;
      openHolds.add(holdId);
      return { holdId, userId: input.userId, heldMicros };
    },
    capture: async (hold, capturedMicros) => {
      const state = accounts.get(hold.userId);
      if (!close(hold)) return false;
      if (state) state.pendingMicros += capturedMicros;
      return true;
    },
    applyCommitted: async (charges) => {
      for (const charge of charges) {
        const state = accounts.get(charge.userId);
        if (state) state.pendingMicros -= charge.capturedMicros;
        if (charge.balance) apply(charge.balance);
      }
    },
    release: async (hold) => {
      close(hold);
    },
    settleCommitted: async (hold) => {
      await reload([hold.userId]);
      close(hold);
    },
    availableMicros: async (userId) => {
      const state = await load(userId);
      return state.balanceMicros - state.heldMicros - state.pendingMicros;
    },
    refresh: () => reload([...accounts.keys()]),
    recordDelivery: (hold, charge) => {
      if (openHolds.has(hold.holdId)) deps.deliveries?.record(hold.holdId, charge);
    },
  };
}
