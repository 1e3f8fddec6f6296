import { createHash } from 'node:crypto';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';

/** Sign-in attempts per minute (GCRA: a burst of this many, then one per 60/N seconds). */
export const loginAttemptsPerMinutePerAddressAndEmail = 10;
export const loginAttemptsPerMinutePerIp = 30;
/**
 * Sign-in attempts on one account from all addresses together; past this budget each attempt waits (the global
 * back-off of `signIn`) instead of being refused, so many addresses guessing slow down but the owner still gets in.
 */
export const loginAttemptsPerMinutePerAccount = 30;
export const registrationsPerMinutePerIp = 20;
export const passwordChangesPerMinutePerUser = 10;
export const passwordResetsPerMinutePerIp = 10;
export const passwordResetsPerMinutePerEmail = 2;

export type ThrottleSubject =
  | { kind: 'login-ip'; clientIp: string }
  | { kind: 'login-address-email'; clientIp: string; email: string }
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
    case 'login-address-email':
      return {
        key: `login-pair:${hashForKey(`${subject.clientIp}\n${subject.email}`)}`,
        limitPerMinute: loginAttemptsPerMinutePerAddressAndEmail,
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

function hashForKey(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The most a sign-in waits in the global back-off: slow enough to starve guessing, short enough for the owner. */
export const maxSignInBackOffMs = 5_000;

/**
 * The global back-off of one account: every attempt takes from the account's budget across all addresses; once it
 * is spent, the attempt waits until the budget would admit it (at most `maxSignInBackOffMs`), whether its password is
 * right or wrong, so the wait tells an attacker nothing. Returns a function that gives the attempt back after a
 * successful sign-in, so the owner's own sign-ins never count against the account.
 */
export async function backOffSignIn(
  deps: { rateLimiter: RateLimiter; wait: (ms: number) => Promise<void> },
  email: string,
): Promise<{ giveBack: () => Promise<void> }> {
  const subject = `login-account:${hashForKey(email)}`;
  const limitPerMinute = loginAttemptsPerMinutePerAccount;
  const decision = await deps.rateLimiter.take({ subject, limitPerMinute, cost: 1 });
  if (!decision.isAllowed) await deps.wait(Math.min(decision.retryAfterMs, maxSignInBackOffMs));
  return {
    giveBack: async () => {
      if (decision.isAllowed) await deps.rateLimiter.adjust({ subject, limitPerMinute, delta: -1 });
    },
  };
}

function assertNever(value: never): never {
  throw new Error(`unknown throttle subject ${JSON.stringify(value)}`);
}
