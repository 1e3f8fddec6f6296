import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Database } from '../db/database.ts';
import { ServiceUnavailableError } from '../errors/service-unavailable-error.ts';
import type { CommittedCharges, CreditHolds } from './credit-holds.ts';
import { creditNodeKeys, reapCreditNode } from './reap-credit-node.ts';
import { accountTtlSeconds, createRedisCreditNode, throwFirstError } from './redis-credit-node.ts';
import { applyScript, captureScript, releaseScript, reserveScript } from './redis-credit-scripts.ts';

/** How long a node's registration lives without a renewal; then any node may reap it (docs/billing.md). */
export const defaultLeaseMs = 10_000;
/** After Redis lost its state, how long new holds wait while live nodes re-post theirs (> one heartbeat). */
export const defaultRecoveryWindowMs = 3_000;
const recoveryPollMs = 100;

export type RedisCreditHolds = CreditHolds & {
  /**
   * At start, after the journal of the previous process with this node id is written to the database: writes the
   * charges that life left in Redis, reloads the balances it touched, takes back its holds and pending charges, and
   * registers this life. Returns how many holds were released.
   */
  forgetPreviousLife: (accountsToReload: readonly string[]) => Promise<number>;
  /**
   * Once a second, on the lease connection: renews this node's lease (registering, which re-posts what it holds, when
   * Redis lost it or a command went unheard). Never waits for `tend`.
   */
  renewLease: () => Promise<void>;
  /**
   * Once a second, on the shared connection: re-registers when Redis holds fewer of this node's holds than memory,
   * then reaps every node whose lease ran out: writes the charges it left, then frees its holds and pending charges.
   * Returns the reaped ids.
   */
  tend: () => Promise<string[]>;
  /** `renewLease` then `tend`, in one go. */
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

/**
 * Credit holds shared by every gateway node through Redis (`REDIS_URL`). The node also keeps in memory every hold it
 * has open, every charge it journaled that is not yet in the database and the amounts pending per account: that is
 * what it re-posts when Redis lost its state, so no node ever trusts a balance Redis rebuilt without the holds of the
 * calls in flight (docs/billing.md, "Holds that survive a fault").
 */
export function createRedisCreditHolds(deps: {
  db: Database;
  redis: Redis;
  /** The connection lease renewals go on (`RedisCreditNodeDeps.leaseRedis`); `redis` by default. */
  leaseRedis?: Redis;
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
  const onError = deps.onError ?? (() => undefined);
  const monotonicNowMs = deps.monotonicNowMs ?? (() => performance.now());
  const node = createRedisCreditNode({
    db: deps.db,
    redis,
    ...(deps.leaseRedis ? { leaseRedis: deps.leaseRedis } : {}),
    keyPrefix,
    nodeId,
    leaseMs,
    recoveryWindowMs,
    monotonicNowMs,
    onError,
  });
  const { keys, openHolds, pendingByUser, unwrittenCharges, unappliedBalances, deliveries } = node;
  const { own } = keys;
  let holdSequence = 0;
  /**
   * Captures Redis has not answered yet, by hold id. A charge's apply waits for its capture: applied first, it would
   * take the amount off pending amounts that do not hold it yet, and the capture after it would leave the node's
   * pending record above memory, which the next registration subtracts from the account (more credit than there is).
   */
  const capturesInFlight = new Map<string, Promise<void>>();

  /** Registers first when a command went unheard (re-posting memory), then renews the lease. */
  const renewLease = async (): Promise<void> => {
    if (node.isOutOfSync()) await node.register();
    await node.renewLease();
  };

  /** Re-registers when Redis holds fewer of this node's holds than memory does, then reaps the lapsed nodes. */
  const tend = async (): Promise<string[]> => {
    // Holds only leave memory before Redis hears of it, and enter it after, so Redis holding fewer than memory did
    // when this count was sent (on the connection the reservations went on) means some were lost.
    const known = openHolds.size;
    if ((await redis.hlen(own.holds)) < known) await node.register();
    const others = (await redis.smembers(keys.nodes)).filter((id) => id !== nodeId);
    const reaped: string[] = [];
    for (const id of others) {
      if ((await redis.exists(creditNodeKeys(keyPrefix, id).lease)) === 1) continue;
      if ((await reapNode(id, 'expired')) >= 0) reaped.push(id);
    }
    return reaped;
  };

  const free = async (holdId: string, userId: string): Promise<void> => {
    if (!openHolds.delete(holdId)) return;
    deliveries.forget(holdId);
    await node.tellRedis(releaseScript, [keys.account(userId), own.holds, own.deliveries], [holdId]);
  };

  const reserveOnce = (input: { userId: string; holdId: string; desiredMicros: number; minimumMicros: number }) =>
    node.moveCredit(
      reserveScript,
      [keys.recovering, keys.account(input.userId), own.holds],
      [String(input.desiredMicros), String(input.minimumMicros), input.holdId, input.userId, String(accountTtlSeconds)],
    );

  const reapNode = (id: string, mode: 'expired' | 'own'): Promise<number> =>
    reapCreditNode({ ...deps, reload: (userIds) => node.reload(userIds, 'refresh') }, id, mode);

  return {
    reserve: async (input) => {
      holdSequence += 1;
      const holdId = `${input.holdId}#${holdSequence}`;
      const maxAttempts = Math.ceil(recoveryWindowMs / recoveryPollMs) + 10;
      for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
        const [code, amount, sentAfter] = await reserveOnce({ ...input, holdId });
        if (code === 1 && sentAfter !== node.registrations()) continue;
        if (code === 1) {
          openHolds.set(holdId, { userId: input.userId, heldMicros: amount });
          return { holdId, userId: input.userId, heldMicros: amount };
        }
        if (code === 2) return undefined;
        if (code === 0) await node.loadMissing(input.userId);
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
      const captureKeys = [keys.account(hold.userId), own.holds, own.pending, own.charges, own.deliveries];
      const args = [hold.holdId, String(capturedMicros), hold.userId, String(accountTtlSeconds), chargeText];
      const told = node.tellRedis(captureScript, captureKeys, args);
      capturesInFlight.set(hold.holdId, told);
      await told.finally(() => capturesInFlight.delete(hold.holdId));
      return true;
    },
    applyCommitted: async (charges) => {
      // A capture sent again after a NOSCRIPT must still reach Redis before its charge's apply (decision 1881).
      const captures = charges.flatMap((charge) => charge.holdIds ?? []).map((id) => capturesInFlight.get(id));
      if (captures.some((told) => told !== undefined)) await Promise.all(captures);
      const pipeline = redis.pipeline();
      const perAccount = sumPerAccount(charges);
      for (const charge of perAccount) {
        unappliedBalances.add(charge.userId);
        const left = (pendingByUser.get(charge.userId) ?? 0) - charge.capturedMicros;
        if (left > 0) pendingByUser.set(charge.userId, left);
        else pendingByUser.delete(charge.userId);
        for (const holdId of charge.holdIds ?? []) unwrittenCharges.delete(holdId);
        const applyKeys = [keys.generation, own.registration, keys.account(charge.userId), own.pending, own.charges];
        const balance = [String(charge.balance?.balanceMicros ?? ''), String(charge.balance?.version ?? '')];
        const args = [String(charge.capturedMicros), ...balance, charge.userId, ...(charge.holdIds ?? [])];
        pipeline.eval(applyScript, applyKeys.length, ...applyKeys, node.generation(), ...args);
      }
      const sent = pipeline.exec().catch((error: unknown) => {
        node.markOutOfSync();
        throw error;
      });
      if (!(await node.isHeard(sent))) {
        node.markOutOfSync();
        throw new Error('Redis did not answer while the lease went unrenewed; the next heartbeat re-posts memory');
      }
      const results = await sent;
      throwFirstError(results);
      perAccount.forEach((charge, index) => {
        if ((results?.[index]?.[1] as Outcome | undefined)?.[0] === 1) unappliedBalances.delete(charge.userId);
      });
      if (results?.some(([, value]) => (value as Outcome)[0] === -1)) await node.register();
    },
    release: async (hold) => {
      await free(hold.holdId, hold.userId);
    },
    settleCommitted: async (hold) => {
      await node.reload([hold.userId], 'refresh');
      await free(hold.holdId, hold.userId);
    },
    availableMicros: async (userId) => {
      if (node.generation() === '') await node.register();
      const [balance, accountGeneration] = await redis.hmget(keys.account(userId), 'b', 'g');
      if (balance === null || accountGeneration !== node.generation()) await node.loadMissing(userId);
      const [b, h, p] = await redis.hmget(keys.account(userId), 'b', 'h', 'p');
      return Number(b ?? 0) - Number(h ?? 0) - Number(p ?? 0);
    },
    recordDelivery: (hold, charge) => {
      if (openHolds.has(hold.holdId)) deliveries.record(hold.holdId, charge);
    },
    /** Every node re-reads every account Redis holds: simple, and cheap next to a top-up's rarity. */
    refresh: async () => node.reload(await redis.smembers(keys.accounts), 'refresh'),
    forgetPreviousLife: async (accountsToReload) => {
      // The previous life registered under this very id: its registration (when Redis still has it) lets the
      // balances load before its pending amounts are taken off.
      node.actIn((await redis.get(keys.generation)) ?? '');
      await node.reload(accountsToReload, 'refresh');
      const released = await reapNode(nodeId, 'own');
      node.actIn('');
      await node.register();
      return released;
    },
    renewLease,
    tend,
    heartbeat: async () => {
      await renewLease();
      return tend();
    },
    leaseRenewedAtMs: node.leaseRenewedAtMs,
    openRequestIds: () => [...openHolds.keys()].map((holdId) => holdId.slice(0, holdId.lastIndexOf('#'))),
  };
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
