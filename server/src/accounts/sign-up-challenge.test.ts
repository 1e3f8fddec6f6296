import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib/v1';
import { Redis } from 'ioredis';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import {
  checkSignUpChallenge,
  createMemoryChallengeReplayGuard,
  createRedisChallengeReplayGuard,
  createSignUpChallenge,
  type ChallengeReplayGuard,
} from './sign-up-challenge.ts';

const clock = { nowMs: () => Date.now() };
const redis = new Redis(testRedisUrl(), { lazyConnect: false });
after(() => redis.quit());

const guards: Record<string, () => ChallengeReplayGuard> = {
  memory: () => createMemoryChallengeReplayGuard({ clock }),
  // A prefix of its own, so no other test's keys meet these.
  redis: () => createRedisChallengeReplayGuard({ redis, keyPrefix: `test-${Date.now()}-${Math.random()}:`, clock }),
};

for (const [name, createGuard] of Object.entries(guards)) {
  describe(`the sign-up challenge with the ${name} replay guard`, () => {
    test('a solved challenge passes once; a second node sharing the guard refuses the replay', async () => {
      const replays = createGuard();
      const deps = { clock, challenge: { isRequired: true, maxNumber: 2000, hmacKey: 'k'.repeat(64), replays } };
      const challenge = await createSignUpChallenge(deps);
      const solution = await solveChallenge(challenge.challenge, challenge.salt, 'SHA-256', challenge.maxnumber)
        .promise;
      assert.ok(solution);
      const answer = { ...challenge, algorithm: 'SHA-256' as const, number: solution.number };
      await checkSignUpChallenge(deps, answer);
      const otherNode = { ...deps, challenge: { ...deps.challenge } };
      await assert.rejects(checkSignUpChallenge(otherNode, answer), (error: unknown) => {
        assert.ok(error instanceof GatewayError);
        return error.code === 'challenge_failed';
      });
      const otherKey = { ...deps, challenge: { ...deps.challenge, hmacKey: 'x'.repeat(64) } };
      const fresh = await createSignUpChallenge(deps);
      const freshSolution = await solveChallenge(fresh.challenge, fresh.salt, 'SHA-256', fresh.maxnumber).promise;
      await assert.rejects(
        checkSignUpChallenge(otherKey, { ...fresh, algorithm: 'SHA-256', number: freshSolution?.number ?? -1 }),
        /not valid/,
        'a challenge signed with another key is refused',
      );
    });
  });
}
