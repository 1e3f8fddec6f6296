import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Database } from '../db/database.ts';
import { ServiceUnavailableError } from '../errors/service-unavailable-error.ts';
import type { BalanceSnapshot } from '../db/ledger.ts';
import { listBalanceSnapshots } from '../db/users.ts';
import { chunk } from '../lib/chunk.ts';
import { settlesWithin } from '../lib/settles-within.ts';
import { createSingleFlight } from '../lib/single-flight.ts';
import type { CommittedCharges, CreditHolds } from './credit-holds.ts';
import { createDeliveryCheckpoints } from './delivery-checkpoints.ts';
import { creditNodeKeys, reapCreditNode } from './reap-credit-node.ts';
import {
  applyScript,
  captureScript,
  loadScript,
  openGenerationScript,
  checkpointScript,
  registerScript,
  releaseScript,
  renewLeaseScript,
  reserveScript,
} from './redis-credit-scripts.ts';

/** Idle accounts leave Redis after a week; the next call reloads the balance from the database. */
const accountTtlSeconds = 7 * 24 * 3600;
const refreshBatchSize = 500;
/** How long a node's registration lives without a renewal; then any node may reap it (docs/billing.md). */
export const defaultLeaseMs = 10_000;
/** After Redis lost its state, how long new holds wait while live nodes re-post theirs (> one heartbeat). */
export const defaultRecoveryWindowMs = 3_000;
const recoveryPollMs = 100;
/**
 * A capture, release or written charge waits for Redis as long as the lease is renewed; once no renewal was confirmed
 * for this long (two heartbeats), it goes on out of sync at the next check (every `redisAnswerCheckMs`) and the next
 * heartbeat re-posts memory: a Redis that drops packets must not hold a settlement back from the database past the
 * credit fence's margin (`billing/start-credit-fence.ts`).
 */
const leaseLateMs = 2_000;
const redisAnswerCheckMs = 500;

export type RedisCreditHolds = CreditHolds & {
  /**
   * At start, after the journal of the previous process with this node id is written to the database: writes the
   * charges that life left in Redis, reloads the balances it touched, takes back its holds and pending charges, and
   * registers this life. Returns how many holds were released.
   */
  forgetPreviousLife: (accountsToReload: readonly string[]) => Promise<number>;
  /**
   * Once a second: renews this node's lease (re-posting what it holds when Redis lost it), then reaps every node
   * whose lease ran out: writes the charges it left, then frees its holds and pending charges. Returns the reaped ids.
   */
  heartbeat: () => Promise<string[]>;
  /**
   * When (on `monotonicNowMs`) the newest lease renewal that Redis confirmed was sent: Redis started its TTL no
   * earlier, so this node's own count never ends later than Redis's (`billing/start-credit-fence.ts`).
   */
  leaseRenewedAtMs: () => number;
  /** The request ids of the calls this node holds credit for (a hold id is `<request id>#<n>`). */
  openRequestIds: () => string[];
};

type Outcome = [code: number, amount: number];
/** An outcome and how many registrations had been sent when its command was. */
type Moved = [code: number, amount: number, sentAfterRegistrations: number];

/**
 * Credit holds shared by every gateway node through Redis (`REDIS_URL`). The node also keeps in memory every hold it
 * has open, every charge it journaled that is not yet in the database and the amounts pending per account: that is
 * what it re-posts when Redis lost its state, so no node ever trusts a balance Redis rebuilt without the holds of the
 * calls in flight (docs/billing.md, "Holds that survive a fault").
 */
export function createRedisCreditHolds(deps: {
  db: Database;
  redis: Redis;
  keyPrefix: string;
  nodeId: string;
  leaseMs?: number;
  recoveryWindowMs?: number;
  /** A clock that never jumps (not wall time), for the lease's renewal times; `performance.now` by default. */
  monotonicNowMs?: () => number;
  /** A release, capture or batch of delivery checkpoints did not reach Redis (the next registration carries it). */
  onError?: (error: unknown) => void;
}): RedisCreditHolds {
  const { redis, keyPrefix, nodeId } = deps;
  const leaseMs = deps.leaseMs ?? defaultLeaseMs;
  const recoveryWindowMs = deps.recoveryWindowMs ?? defaultRecoveryWindowMs;
  const accountPrefix = `${keyPrefix}credit:`;
  const accountKey = (userId: string) => `${accountPrefix}${userId}`;
  const generationKey = `${keyPrefix}credit-generation`;
  const recoveringKey = `${keyPrefix}credit-recovering`;
  const nodesKey = `${keyPrefix}credit-nodes`;
  const accounts = `${keyPrefix}credit-accounts`;
  const own = creditNodeKeys(keyPrefix, nodeId);
  const openHolds = new Map<string, { userId: string; heldMicros: number }>();
  const pendingByUser = new Map<string, number>();
  const unwrittenCharges = new Map<string, string>();
  let generation = '';
  let holdSequence = 0;
  /** Raised as each registration is sent: a reservation sent before it was wiped by it and is taken again. */
  let registrations = 0;
  /** A command that moves credit failed on the way: Redis may differ from memory until the next registration. */
  let isOutOfSync = false;
  const monotonicNowMs = deps.monotonicNowMs ?? (() => performance.now());
  // Before the first registration is sent, so it errs early.
  let leaseRenewedAtMs = monotonicNowMs();
  /**
   * Accounts whose committed balance Redis did not take (the apply failed, or found this node reaped): registration
   * re-posts pending amounts from memory, which no longer count those charges, so their balances are re-read then.
   * Without it a charge written while the node was cut off (a final charge superseding a reaper's checkpoint one
   * included) would count nowhere in Redis.
   */
  const unappliedBalances = new Set<string>();

  const evalOutcome = async (script: string, keys: string[], args: string[]): Promise<Outcome> =>
    (await redis.eval(script, keys.length, ...keys, generation, ...args)) as Outcome;

  /** What this node knows, as the register script takes it; amounts as strings so Lua keeps them integers. */
  const knownState = () =>
    JSON.stringify({
      holds: [...openHolds].map(([holdId, hold]) => [holdId, hold.userId, String(hold.heldMicros)]),
      pending: [...pendingByUser].filter(([, amount]) => amount > 0).map(([user, amount]) => [user, String(amount)]),
      charges: [...unwrittenCharges],
    });
  const registerOnce = createSingleFlight<void>();
  /** Joins Redis's generation (opening one when Redis has none) and re-posts this node's holds and pending charges. */
  const register = (): Promise<void> =>
    registerOnce('register', async () => {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const current = String(
          await redis.eval(openGenerationScript, 2, generationKey, recoveringKey, newGeneration(), recoveryWindowMs),
        );
        // The generation switch and the snapshot happen in one turn, and the script is sent in the same turn, so
        // every later command runs after it and every earlier one is in the snapshot or was refused.
        generation = current;
        registrations += 1;
        const sentAtMs = monotonicNowMs();
        const registered = Number(
          await redis.eval(
            registerScript,
            8,
            generationKey,
            own.registration,
            own.holds,
            own.pending,
            own.charges,
            own.lease,
            nodesKey,
            own.deliveries,
            current,
            accountPrefix,
            leaseMs,
            nodeId,
            knownState(),
          ),
        );
        if (registered >= 0) {
          // Registering sets the lease too.
          leaseRenewedAtMs = sentAtMs;
          isOutOfSync = false;
          deliveries.rewriteAll();
          await reloadUnapplied();
          return;
        }
      }
      throw new Error('Redis changed its credit generation five times during one registration');
    });

  const load = async (snapshots: readonly BalanceSnapshot[], mode: 'reserve' | 'refresh') => {
    if (snapshots.length === 0) return;
    const pipeline = redis.pipeline();
    for (const snapshot of snapshots) {
      const keys = [generationKey, own.registration, accountKey(snapshot.userId), accounts];
      const args = [String(snapshot.balanceMicros), String(snapshot.version), String(accountTtlSeconds), mode];
      pipeline.eval(loadScript, keys.length, ...keys, generation, ...args, snapshot.userId);
    }
    throwFirstError(await pipeline.exec());
  };
  const reload = async (userIds: readonly string[], mode: 'reserve' | 'refresh') => {
    for (const part of chunk(userIds, refreshBatchSize)) await load(await listBalanceSnapshots(deps.db, part), mode);
  };
  const reloadUnapplied = async () => {
    const userIds = [...unappliedBalances];
    unappliedBalances.clear();
    await reload(userIds, 'refresh').catch((error: unknown) => {
      // Registered all the same: the next heartbeat registers again and retries the read.
      for (const userId of userIds) unappliedBalances.add(userId);
      isOutOfSync = true;
      (deps.onError ?? (() => undefined))(error);
    });
  };
  /** One database read per account however many calls find it missing from Redis at once. */
  const loadOnce = createSingleFlight<void>();
  const loadMissing = (userId: string): Promise<void> => loadOnce(userId, () => reload([userId], 'reserve'));

  /** Runs a script that moves credit; when this node is not registered in Redis's generation, registers first. */
  const moveCredit = async (script: string, keys: string[], args: string[]): Promise<Moved> => {
    if (generation === '') await register();
    const sentAfter = registrations;
    const outcome = await evalOutcome(script, [generationKey, own.registration, ...keys], args).catch(
      (error: unknown) => {
        isOutOfSync = true;
        throw error;
      },
    );
    if (outcome[0] === -1) await register();
    return [outcome[0], outcome[1], sentAfter];
  };
  /** Whether Redis answered `command` (or failed it) before the lease went unrenewed for `leaseLateMs`. */
  const isHeard = async (command: Promise<unknown>): Promise<boolean> => {
    while (!(await settlesWithin(command, redisAnswerCheckMs))) {
      if (monotonicNowMs() - leaseRenewedAtMs > leaseLateMs) return false;
    }
    return true;
  };
  /**
   * Tells Redis of a change memory already made. When Redis cannot hear it (unreachable, restarting) the change stands:
   * the next heartbeat re-registers and re-posts memory, so the caller goes on as if Redis had taken it. Throwing here
   * would make the caller believe the change did not happen (a capture never applied, pending forever).
   */
  const tellRedis = async (script: string, keys: string[], args: string[]): Promise<void> => {
    const told = (async () => {
      try {
        const [code] = await moveCredit(script, keys, args);
        // Redis no longer had the hold memory had: it lost state under this generation, so this node re-posts.
        if (code === 0) await register();
      } catch (error) {
        isOutOfSync = true;
        (deps.onError ?? (() => undefined))(error);
      }
    })();
    if (!(await isHeard(told))) isOutOfSync = true;
  };
  const free = async (holdId: string, userId: string): Promise<void> => {
    if (!openHolds.delete(holdId)) return;
    deliveries.forget(holdId);
    await tellRedis(releaseScript, [accountKey(userId), own.holds, own.deliveries], [holdId]);
  };

  const reserveOnce = (input: { userId: string; holdId: string; desiredMicros: number; minimumMicros: number }) =>
    moveCredit(
      reserveScript,
      [recoveringKey, accountKey(input.userId), own.holds],
      [String(input.desiredMicros), String(input.minimumMicros), input.holdId, input.userId, String(accountTtlSeconds)],
    );

  const reapNode = (id: string, mode: 'expired' | 'own'): Promise<number> =>
    reapCreditNode({ ...deps, reload: (userIds) => reload(userIds, 'refresh') }, id, mode);
  const deliveries = createDeliveryCheckpoints({
    write: async (checkpoints) => {
      // Closing a hold drops its checkpoint in the same script, so only new deliveries need writing.
      if (checkpoints.length === 0) return;
      await moveCredit(checkpointScript, [own.holds, own.deliveries], checkpoints.flat());
    },
    onError: deps.onError ?? (() => undefined),
  });

  return {
    reserve: async (input) => {
      holdSequence += 1;
      const holdId = `${input.holdId}#${holdSequence}`;
      const maxAttempts = Math.ceil(recoveryWindowMs / recoveryPollMs) + 10;
      for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
        const [code, amount, sentAfter] = await reserveOnce({ ...input, holdId });
        if (code === 1 && sentAfter !== registrations) continue;
        if (code === 1) {
          openHolds.set(holdId, { userId: input.userId, heldMicros: amount });
          return { holdId, userId: input.userId, heldMicros: amount };
        }
        if (code === 2) return undefined;
        if (code === 0) await loadMissing(input.userId);
        // While live nodes re-post after a loss, new holds wait: the balance Redis shows is not yet complete.
        if (code === 3) await sleep(recoveryPollMs);
      }
      throw new ServiceUnavailableError(
        'Credit holds are being rebuilt after the credit store (Redis) lost its state; nothing was charged. Please retry in a few seconds.',
        { headers: { 'retry-after': String(Math.ceil(recoveryWindowMs / 1000)) } },
      );
    },
    capture: async (hold, capturedMicros, charge) => {
      // Memory first: whatever Redis does with this command, a later re-registration carries the outcome.
      if (!openHolds.delete(hold.holdId)) return false;
      deliveries.forget(hold.holdId);
      const chargeText = capturedMicros > 0 && charge ? JSON.stringify(charge) : '';
      if (capturedMicros > 0) pendingByUser.set(hold.userId, (pendingByUser.get(hold.userId) ?? 0) + capturedMicros);
      if (chargeText !== '') unwrittenCharges.set(hold.holdId, chargeText);
      const keys = [accountKey(hold.userId), own.holds, own.pending, own.charges, own.deliveries];
      const args = [hold.holdId, String(capturedMicros), hold.userId, String(accountTtlSeconds), chargeText];
      await tellRedis(captureScript, keys, args);
      return true;
    },
    applyCommitted: async (charges) => {
      const pipeline = redis.pipeline();
      const perAccount = sumPerAccount(charges);
      for (const charge of perAccount) {
        unappliedBalances.add(charge.userId);
        const left = (pendingByUser.get(charge.userId) ?? 0) - charge.capturedMicros;
        if (left > 0) pendingByUser.set(charge.userId, left);
        else pendingByUser.delete(charge.userId);
        for (const holdId of charge.holdIds ?? []) unwrittenCharges.delete(holdId);
        const keys = [generationKey, own.registration, accountKey(charge.userId), own.pending, own.charges];
        const balance = [String(charge.balance?.balanceMicros ?? ''), String(charge.balance?.version ?? '')];
        const args = [String(charge.capturedMicros), ...balance, charge.userId, ...(charge.holdIds ?? [])];
        pipeline.eval(applyScript, keys.length, ...keys, generation, ...args);
      }
      const sent = pipeline.exec().catch((error: unknown) => {
        isOutOfSync = true;
        throw error;
      });
      if (!(await isHeard(sent))) {
        isOutOfSync = true;
        throw new Error('Redis did not answer while the lease went unrenewed; the next heartbeat re-posts memory');
      }
      const results = await sent;
      throwFirstError(results);
      perAccount.forEach((charge, index) => {
        if ((results?.[index]?.[1] as Outcome | undefined)?.[0] === 1) unappliedBalances.delete(charge.userId);
      });
      if (results?.some(([, value]) => (value as Outcome)[0] === -1)) await register();
    },
    release: async (hold) => {
      await free(hold.holdId, hold.userId);
    },
    settleCommitted: async (hold) => {
      await reload([hold.userId], 'refresh');
      await free(hold.holdId, hold.userId);
    },
    availableMicros: async (userId) => {
      if (generation === '') await register();
      const [balance, accountGeneration] = await redis.hmget(accountKey(userId), 'b', 'g');
      if (balance === null || accountGeneration !== generation) await loadMissing(userId);
      const [b, h, p] = await redis.hmget(accountKey(userId), 'b', 'h', 'p');
      return Number(b ?? 0) - Number(h ?? 0) - Number(p ?? 0);
    },
    recordDelivery: (hold, charge) => {
      if (openHolds.has(hold.holdId)) deliveries.record(hold.holdId, charge);
    },
    /** Every node re-reads every account Redis holds: simple, and cheap next to a top-up's rarity. */
    refresh: async () => reload(await redis.smembers(accounts), 'refresh'),
    forgetPreviousLife: async (accountsToReload) => {
      // The previous life registered under this very id: its registration (when Redis still has it) lets the
      // balances load before its pending amounts are taken off.
      generation = (await redis.get(generationKey)) ?? '';
      await reload(accountsToReload, 'refresh');
      const released = await reapNode(nodeId, 'own');
      generation = '';
      await register();
      return released;
    },
    heartbeat: async () => {
      if (isOutOfSync) await register();
      // Holds only leave memory before Redis hears of it, so Redis holding fewer than memory did means some were lost.
      const known = openHolds.size;
      const sentAtMs = monotonicNowMs();
      const [renewed, registered] = await moveCredit(renewLeaseScript, [own.lease, own.holds], [String(leaseMs)]);
      if (renewed !== 1) return [];
      leaseRenewedAtMs = sentAtMs;
      if (registered < known) await register();
      const others = (await redis.smembers(nodesKey)).filter((id) => id !== nodeId);
      const reaped: string[] = [];
      for (const id of others) {
        if ((await redis.exists(creditNodeKeys(keyPrefix, id).lease)) === 1) continue;
        if ((await reapNode(id, 'expired')) >= 0) reaped.push(id);
      }
      return reaped;
    },
    leaseRenewedAtMs: () => leaseRenewedAtMs,
    openRequestIds: () => [...openHolds.keys()].map((holdId) => holdId.slice(0, holdId.lastIndexOf('#'))),
  };
}

function newGeneration(): string {
  return `gen_${randomBytes(8).toString('hex')}`;
}

/** One entry per account: the sum of its captured amounts, their hold ids and the newest balance among them. */
function sumPerAccount(charges: readonly CommittedCharges[]): CommittedCharges[] {
  const byUser = new Map<string, CommittedCharges & { holdIds: string[] }>();
  for (const charge of charges) {
    const known = byUser.get(charge.userId);
    if (!known) {
      byUser.set(charge.userId, { ...charge, holdIds: [...(charge.holdIds ?? [])] });
      continue;
    }
    known.capturedMicros += charge.capturedMicros;
    known.holdIds.push(...(charge.holdIds ?? []));
    if (charge.balance && (!known.balance || charge.balance.version > known.balance.version)) {
      known.balance = charge.balance;
    }
  }
  return [...byUser.values()];
}

function throwFirstError(results: [Error | null, unknown][] | null): void {
  const failed = results?.find(([error]) => error !== null);
  if (failed?.[0]) throw failed[0];
}
