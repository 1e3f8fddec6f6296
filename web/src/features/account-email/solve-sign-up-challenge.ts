import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type { z } from 'zod';
import type { challengeAnswerSchema } from '../../../../contract/auth.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';

type ChallengeAnswer = z.infer<typeof challengeAnswerSchema>;

/**
 * Fetches the gateway's proof-of-work challenge and solves it here, in the browser (ALTCHA v1: the number n up to
 * `maxnumber` whose SHA-256 of salt + n is the challenge), so no third-party script or service is involved.
 * Undefined when the gateway does not ask for it.
 */
export async function solveSignUpChallenge(): Promise<ChallengeAnswer | undefined> {
  const challenge = await callEndpoint(apiEndpoints.getSignUpChallenge, {});
  if (!challenge.is_required) return undefined;
  const encoder = new TextEncoder();
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${challenge.salt}${number}`));
    if (toHex(digest) === challenge.challenge) {
      return {
        algorithm: 'SHA-256',
        challenge: challenge.challenge,
        number,
        salt: challenge.salt,
        signature: challenge.signature,
      };
    }
  }
  throw new Error('the sign-up challenge has no solution');
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
