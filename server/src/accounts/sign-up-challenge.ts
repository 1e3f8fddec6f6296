import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { Clock } from '../lib/clock.ts';

/** How long a challenge may be answered: enough for a slow phone to solve it and a person to type a password. */
export const challengeLifetimeMs = 20 * 60_000;

/**
 * Remembers answered challenges until they expire, so one solved challenge opens one account: in memory on one node,
 * in Redis (SET NX) when nodes share it. `claim` is true for the first use of a signature, false for a replay.
 */
export type ChallengeReplayGuard = { claim: (input: { signature: string; expiresAtMs: number }) => Promise<boolean> };

export type SignUpChallengeDeps = {
  clock: Clock;
  challenge: { isRequired: boolean; maxNumber: number; hmacKey: string; replays: ChallengeReplayGuard };
};

/**
 * A new ALTCHA challenge (protocol v1: find the number n ≤ maxnumber with SHA-256(salt + n) = challenge), signed
 * with this gateway's HMAC key, self-hosted: no third-party service sees the visitor.
 * @see https://altcha.org/docs/v2/
 */
export async function createSignUpChallenge(
  deps: SignUpChallengeDeps,
): Promise<Awaited<ReturnType<typeof createChallenge>>> {
  return createChallenge({
    hmacKey: deps.challenge.hmacKey,
    maxNumber: deps.challenge.maxNumber,
    expires: new Date(deps.clock.nowMs() + challengeLifetimeMs),
  });
}

/** A solved challenge as the client sends it (the fields of ALTCHA's v1 payload, schema-checked at the edge). */
export type ChallengeAnswer = {
  algorithm: 'SHA-256';
  challenge: string;
  number: number;
  salt: string;
  signature: string;
};

/**
 * Checks the `altcha` answer when challenges are required: missing → `challenge_required`; forged, wrong, expired
 * or replayed → `challenge_failed`.
 */
export async function checkSignUpChallenge(
  deps: SignUpChallengeDeps,
  answer: ChallengeAnswer | undefined,
): Promise<void> {
  if (!deps.challenge.isRequired) return;
  if (answer === undefined) {
    throw new InvalidRequestError('Solve the sign-up challenge first (the page does it for you; wait for it).', {
      param: 'altcha',
      code: 'challenge_required',
    });
  }
  const isVerified = await verifySolution(answer, deps.challenge.hmacKey, true).catch(() => false);
  if (!isVerified) throw challengeFailed();
  const expiresSeconds = Number(extractParams(answer)['expires']);
  const isFirstUse = await deps.challenge.replays.claim({
    signature: answer.signature,
    expiresAtMs: Number.isFinite(expiresSeconds) ? expiresSeconds * 1000 : deps.clock.nowMs() + challengeLifetimeMs,
  });
  if (!isFirstUse) throw challengeFailed();
}

function challengeFailed(): InvalidRequestError {
  return new InvalidRequestError('The sign-up challenge answer is not valid or was used before. Try again.', {
    param: 'altcha',
    code: 'challenge_failed',
  });
}

/** The in-memory replay guard of a single node: a map of used signatures, swept of expired ones as it is used. */
export function createMemoryChallengeReplayGuard(deps: { clock: Clock }): ChallengeReplayGuard {
  const used = new Map<string, number>();
  return {
    claim: async ({ signature, expiresAtMs }) => {
      const nowMs = deps.clock.nowMs();
      for (const [key, expiry] of used) if (expiry <= nowMs) used.delete(key);
      if (used.has(signature)) return false;
      used.set(signature, expiresAtMs);
      return true;
    },
  };
}

/** The part of a Redis client the shared guard uses: `SET key value PX ms NX`, which answers `OK` only when it set. */
export type RedisSetNx = {
  set: (key: string, value: string, px: 'PX', milliseconds: number, nx: 'NX') => Promise<string | null>;
};

/** The replay guard nodes share: one Redis key per used signature, expiring with its challenge. */
export function createRedisChallengeReplayGuard(deps: {
  redis: RedisSetNx;
  keyPrefix: string;
  clock: Clock;
}): ChallengeReplayGuard {
  return {
    claim: async ({ signature, expiresAtMs }) => {
      const ttlMs = Math.max(expiresAtMs - deps.clock.nowMs(), 1000);
      const answer = await deps.redis.set(`${deps.keyPrefix}altcha:${signature}`, '1', 'PX', ttlMs, 'NX');
      return answer === 'OK';
    },
  };
}
