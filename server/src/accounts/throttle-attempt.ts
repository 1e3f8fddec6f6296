import { createHash } from 'node:crypto';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';

/** Sign-in attempts per minute (GCRA: a burst of this many, then one per 60/N seconds). */
export const loginAttemptsPerMinutePerEmail = 10;
export const loginAttemptsPerMinutePerIp = 30;
export const registrationsPerMinutePerIp = 20;
export const passwordChangesPerMinutePerUser = 10;
export const passwordResetsPerMinutePerIp = 10;
export const passwordResetsPerMinutePerEmail = 2;

export type ThrottleSubject =
  | { kind: 'login-ip'; clientIp: string }
  | { kind: 'login-email'; email: string }
  | { kind: 'register-ip'; clientIp: string }
  | { kind: 'password-change'; userId: string }
  | { kind: 'reset-ip'; clientIp: string }
  | { kind: 'reset-email'; email: string };

/**
 * Takes one attempt from a subject's budget, or refuses with 429 and `Retry-After`. E-mail addresses are hashed
 * before they become limiter keys, so Redis never holds them in clear.
 */
export async function throttleAttempt(deps: { rateLimiter: RateLimiter }, subject: ThrottleSubject): Promise<void> {
  const { key, limitPerMinute } = describeSubject(subject);
  const decision = await deps.rateLimiter.take({ subject: key, limitPerMinute, cost: 1 });
  if (decision.isAllowed) return;
  throw new RateLimitError('Too many attempts. Wait for the time in Retry-After, then try again.', {
    retryAfterSeconds: decision.retryAfterMs / 1000,
    limitKind: 'requests',
  });
}

function describeSubject(subject: ThrottleSubject): { key: string; limitPerMinute: number } {
  switch (subject.kind) {
    case 'login-ip':
      return { key: `login-ip:${subject.clientIp}`, limitPerMinute: loginAttemptsPerMinutePerIp };
    case 'login-email':
      return {
        key: `login-email:${createHash('sha256').update(subject.email).digest('hex').slice(0, 32)}`,
        limitPerMinute: loginAttemptsPerMinutePerEmail,
      };
    case 'register-ip':
      return { key: `register-ip:${subject.clientIp}`, limitPerMinute: registrationsPerMinutePerIp };
    case 'reset-ip':
      return { key: `reset-ip:${subject.clientIp}`, limitPerMinute: passwordResetsPerMinutePerIp };
    case 'reset-email':
      return {
        key: `reset-email:${createHash('sha256').update(subject.email).digest('hex').slice(0, 32)}`,
        limitPerMinute: passwordResetsPerMinutePerEmail,
      };
    case 'password-change':
      return { key: `password-change:${subject.userId}`, limitPerMinute: passwordChangesPerMinutePerUser };
    default:
      return assertNever(subject);
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown throttle subject ${JSON.stringify(value)}`);
}
