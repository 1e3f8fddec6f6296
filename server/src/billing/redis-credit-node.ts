import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Database } from '../db/database.ts';
import type { BalanceSnapshot } from '../db/ledger.ts';
import { listBalanceSnapshots } from '../db/users.ts';
import { chunk } from '../lib/chunk.ts';
import { settlesWithin } from '../lib/settles-within.ts';
import { createSingleFlight } from '../lib/single-flight.ts';
import { createCreditScriptSender, isNoScriptError } from './credit-script-sender.ts';
import { createDeliveryCheckpoints, type DeliveryCheckpoints } from './delivery-checkpoints.ts';
import { creditNodeKeys } from './reap-credit-node.ts';
import {
  checkpointScript,
  loadScript,
  openGenerationScript,
  registerScript,
  renewLeaseScript,
} from './redis-credit-scripts.ts';

/** Idle accounts leave Redis after a week; the next call reloads the balance from the database. */
export const accountTtlSeconds = 7 * 24 * 3600;
const refreshBatchSize = 500;
/**
 * A capture, release or written charge waits for Redis as long as the lease is renewed; once no renewal was confirmed
 * for this long (two heartbeats), it goes on out of sync at the next check (every `redisAnswerCheckMs`) and the next
 * heartbeat re-posts memory: a Redis that drops packets must not hold a settlement back from the database past the
 * credit fence's margin (`billing/start-credit-fence.ts`).
 */
const leaseLateMs = 2_000;
const redisAnswerCheckMs = 500;

export type RedisCreditNodeDeps = {
  db: Database;
  redis: Redis;
  /**
   * The connection lease renewals go on (a second one to the same Redis, or `redis` itself): on the shared connection
   * a renewal waits behind every command sent before it, and under load (a thousand streams checkpointing) its answer
   * came seconds late, which the credit fence read as a Redis cut off (decision 1902).
   */
  leaseRedis?: Redis;
  keyPrefix: string;
  nodeId: string;
  leaseMs: number;
  recoveryWindowMs: number;
  monotonicNowMs: () => number;
  onError: (error: unknown) => void;
};

/** An outcome and how many registrations had been sent when its command was. */
export type Moved = [code: number, amount: number, sentAfterRegistrations: number];

/**
 * What one gateway node holds toward the credit store in Redis: in memory, every hold it has open, every charge it
 * journaled that is not yet in the database and the amounts pending per account (what it re-posts when Redis lost its
 * state); in Redis, its registration in the current generation and its lease. Every command that moves credit goes
 * through `moveCredit`, which registers first when the node is not registered (docs/billing.md, "Holds that survive
 * a fault").
 */
export function createRedisCreditNode(deps: RedisCreditNodeDeps) {
  const { redis, keyPrefix, nodeId } = deps;
  const accountPrefix = `${keyPrefix}credit:`;
  const keys = {
    accountPrefix,
    account: (userId: string) => `${accountPrefix}${userId}`,
    generation: `${keyPrefix}credit-generation`,
    recovering: `${keyPrefix}credit-recovering`,
    nodes: `${keyPrefix}credit-nodes`,
    accounts: `${keyPrefix}credit-accounts`,
    own: creditNodeKeys(keyPrefix, nodeId),
  };
  const openHolds = new Map<string, { userId: string; heldMicros: number }>();
  const pendingByUser = new Map<string, number>();
  const unwrittenCharges = new Map<string, string>();
  /**
   * Accounts whose committed balance Redis did not take (the apply failed, or found this node reaped): registration
   * re-posts pending amounts from memory, which no longer count those charges, so their balances are re-read then.
   * Without it a charge written while the node was cut off (a final charge superseding a reaper's checkpoint one
   * included) would count nowhere in Redis.
   */
  const unappliedBalances = new Set<string>();
  let generation = '';
  /** Raised as each registration is sent: a reservation sent before it was wiped by it and is taken again. */
  let registrations = 0;
  /** A command that moves credit failed on the way: Redis may differ from memory until the next registration. */
  let isOutOfSync = false;
  // Before the first registration is sent, so it errs early.
  let leaseRenewedAtMs = deps.monotonicNowMs();

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
          await redis.eval(
            openGenerationScript,
            2,
            keys.generation,
            keys.recovering,
            newGeneration(),
            deps.recoveryWindowMs,
          ),
        );
        // The generation switch and the snapshot happen in one turn, and the script is sent in the same turn, so
        // every later command runs after it and every earlier one is in the snapshot or was refused.
        generation = current;
        registrations += 1;
        const sentAtMs = deps.monotonicNowMs();
        const { own } = keys;
        const registered = Number(
          await redis.eval(
            registerScript,
            8,
            keys.generation,
            own.registration,
            own.holds,
            own.pending,
            own.charges,
            own.lease,
            keys.nodes,
            own.deliveries,
            current,
            accountPrefix,
            deps.leaseMs,
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
      const loadKeys = [keys.generation, keys.own.registration, keys.account(snapshot.userId), keys.accounts];
      const args = [String(snapshot.balanceMicros), String(snapshot.version), String(accountTtlSeconds), mode];
      pipeline.eval(loadScript, loadKeys.length, ...loadKeys, generation, ...args, snapshot.userId);
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
      deps.onError(error);
    });
  };
  /** One database read per account however many calls find it missing from Redis at once. */
  const loadOnce = createSingleFlight<void>();
  const loadMissing = (userId: string): Promise<void> => loadOnce(userId, () => reload([userId], 'reserve'));

  const scripts = createCreditScriptSender(redis);
  /**
   * Runs a script that moves credit (by its SHA once Redis ran its text); when this node is not registered in Redis's
   * generation, registers first. A `NOSCRIPT` (Redis's script cache flushed under an open connection) did nothing, and
   * commands sent after it may have run meanwhile: the script is sent again with its text as a new send (the
   * generation and the registration count read anew, so a registration sent in between counts as sent before it),
   * and the node is marked out of sync, so the next heartbeat re-posts memory over whatever the reordering left
   * (decision 1881).
   */
  const moveCredit = async (script: string, scriptKeys: string[], args: string[], byText = false): Promise<Moved> => {
    if (generation === '') await register();
    const sentAfter = registrations;
    const allKeys = [keys.generation, keys.own.registration, ...scriptKeys];
    let outcome: [code: number, amount: number];
    try {
      outcome = (await scripts.send(script, allKeys, [generation, ...args], byText)) as [number, number];
    } catch (error) {
      isOutOfSync = true;
      if (!isNoScriptError(error)) throw error;
      scripts.forgetLoaded();
      return moveCredit(script, scriptKeys, args, true);
    }
    if (outcome[0] === -1) await register();
    return [outcome[0], outcome[1], sentAfter];
  };

  /**
   * Renews the lease on the lease connection and notes it renewed as of when it was sent; when Redis no longer has
   * this node registered, registers (which sets the lease too). Whether Redis still has every hold is checked on the
   * shared connection, behind the reservations sent before it (`RedisCreditHolds.tend`).
   */
  const renewLease = async (): Promise<void> => {
    if (generation === '') await register();
    const sentAtMs = deps.monotonicNowMs();
    const leaseKeys = [keys.generation, keys.own.registration, keys.own.lease, keys.own.holds];
    const [code] = (await (deps.leaseRedis ?? redis).eval(
      renewLeaseScript,
      leaseKeys.length,
      ...leaseKeys,
      generation,
      String(deps.leaseMs),
    )) as [code: number, holds: number];
    if (code === 1) leaseRenewedAtMs = Math.max(leaseRenewedAtMs, sentAtMs);
    else await register();
  };
  /** Whether Redis answered `command` (or failed it) before the lease went unrenewed for `leaseLateMs`. */
  const isHeard = async (command: Promise<unknown>): Promise<boolean> => {
    while (!(await settlesWithin(command, redisAnswerCheckMs))) {
      if (deps.monotonicNowMs() - leaseRenewedAtMs > leaseLateMs) return false;
    }
    return true;
  };
  /**
   * Tells Redis of a change memory already made. When Redis cannot hear it (unreachable, restarting) the change stands:
   * the next heartbeat re-registers and re-posts memory, so the caller goes on as if Redis had taken it. Throwing here
   * would make the caller believe the change did not happen (a capture never applied, pending forever).
   */
  const tellRedis = async (script: string, scriptKeys: string[], args: string[]): Promise<void> => {
    const told = (async () => {
      try {
        const [code] = await moveCredit(script, scriptKeys, args);
        // Redis no longer had the hold memory had: it lost state under this generation, so this node re-posts.
        if (code === 0) await register();
      } catch (error) {
        isOutOfSync = true;
        deps.onError(error);
      }
    })();
    if (!(await isHeard(told))) isOutOfSync = true;
  };

  const deliveries: DeliveryCheckpoints = createDeliveryCheckpoints({
    write: async (checkpoints) => {
      // Closing a hold drops its checkpoint in the same script, so only new deliveries need writing.
      if (checkpoints.length === 0) return;
      await moveCredit(checkpointScript, [keys.own.holds, keys.own.deliveries], checkpoints.flat());
    },
    onError: deps.onError,
  });

  return {
    keys,
    openHolds,
    pendingByUser,
    unwrittenCharges,
    unappliedBalances,
    deliveries,
    generation: () => generation,
    /** Sets the generation this node acts in without registering (a previous life's, to reap it at start). */
    actIn: (next: string) => {
      generation = next;
    },
    registrations: () => registrations,
    isOutOfSync: () => isOutOfSync,
    markOutOfSync: () => {
      isOutOfSync = true;
    },
    leaseRenewedAtMs: () => leaseRenewedAtMs,
    renewLease,
    register,
    reload,
    loadMissing,
    moveCredit,
    isHeard,
    tellRedis,
  };
}

export type RedisCreditNode = ReturnType<typeof createRedisCreditNode>;

function newGeneration(): string {
  return `gen_${randomBytes(8).toString('hex')}`;
}

export function throwFirstError(results: [Error | null, unknown][] | null): void {
  const failed = results?.find(([error]) => error !== null);
  if (failed?.[0]) throw failed[0];
}
