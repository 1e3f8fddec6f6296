import type { Database } from '../db/database.ts';
import { listBalances } from '../db/users.ts';

/** Money set aside for one call before the upstream is asked; captured or released when the call ends. */
export type CreditHold = { holdId: string; userId: string; heldMicros: number };

/**
 * Balances and holds of the accounts this node serves, in memory: a reservation checks and takes credit in one
 * synchronous step, so no interleaving of concurrent requests can overdraw. The balance comes from the database on
 * first use and after any ledger change made elsewhere (`refresh`); holds live only in memory, so a crash releases
 * them by construction.
 */
export type CreditHolds = {
  /** Holds `desiredMicros`, or less but at least `minimumMicros`; undefined when even the minimum is not there. */
  reserve: (input: {
    userId: string;
    holdId: string;
    desiredMicros: number;
    minimumMicros: number;
  }) => Promise<CreditHold | undefined>;
  /** After the charge is committed to the ledger: lower the balance by it and free the hold. */
  settle: (hold: CreditHold, capturedMicros: number) => void;
  release: (hold: CreditHold) => void;
  /** Balance less active holds. */
  availableMicros: (userId: string) => Promise<number>;
  /** Re-reads the balances of every cached account (after a top-up, adjustment or another node's charge). */
  refresh: () => Promise<void>;
};

type AccountState = { balanceMicros: number; heldMicros: number; localChanges: number };

export function createCreditHolds(deps: { db: Database }): CreditHolds {
  const accounts = new Map<string, AccountState>();
  const loading = new Map<string, Promise<AccountState>>();

  const load = (userId: string): Promise<AccountState> => {
    const cached = accounts.get(userId);
    if (cached) return Promise.resolve(cached);
    let pending = loading.get(userId);
    if (!pending) {
      pending = listBalances(deps.db, [userId])
        .then((balances) => {
          const state = accounts.get(userId) ?? {
            balanceMicros: balances.get(userId) ?? 0,
            heldMicros: 0,
            localChanges: 0,
          };
          accounts.set(userId, state);
          return state;
        })
        .finally(() => loading.delete(userId));
      loading.set(userId, pending);
    }
    return pending;
  };

  return {
    reserve: async (input) => {
      const state = await load(input.userId);
      const available = state.balanceMicros - state.heldMicros;
      if (available < input.minimumMicros) return undefined;
      const heldMicros = Math.min(input.desiredMicros, available);
      state.heldMicros += heldMicros;
      return { holdId: input.holdId, userId: input.userId, heldMicros };
    },
    settle: (hold, capturedMicros) => {
      const state = accounts.get(hold.userId);
      if (!state) return;
      state.heldMicros -= hold.heldMicros;
      state.balanceMicros -= capturedMicros;
      state.localChanges += 1;
    },
    release: (hold) => {
      const state = accounts.get(hold.userId);
      if (state) state.heldMicros -= hold.heldMicros;
    },
    availableMicros: async (userId) => {
      const state = await load(userId);
      return state.balanceMicros - state.heldMicros;
    },
    refresh: async () => {
      let pending = [...accounts.keys()];
      for (let attempt = 0; attempt < 5 && pending.length > 0; attempt += 1) {
        const changesBefore = new Map(pending.map((userId) => [userId, accounts.get(userId)?.localChanges ?? 0]));
        const balances = await listBalances(deps.db, pending);
        const stale: string[] = [];
        for (const [userId, balanceMicros] of balances) {
          const state = accounts.get(userId);
          if (!state) continue;
          // A settlement of this node that landed while we read makes the read stale: read that account again.
          if (state.localChanges === changesBefore.get(userId)) state.balanceMicros = balanceMicros;
          else stale.push(userId);
        }
        pending = stale;
      }
    },
  };
}
