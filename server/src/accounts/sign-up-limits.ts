import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Database } from '../db/database.ts';
import { countSignUpsSince } from '../db/users.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import type { Clock } from '../lib/clock.ts';

const dayMs = 24 * 60 * 60 * 1000;

export type SignUpLimitDeps = {
  db: Database;
  clock: Clock;
  signUpLimits: {
    /** Accounts per client address and per /24 (IPv4) or /64 (IPv6) network per 24 hours; 0 turns a limit off. */
    perAddressPerDay: number;
    perNetworkPerDay: number;
    /** Lower-case domains whose addresses may not sign up (the operator's list; empty for none). */
    disposableEmailDomains: ReadonlySet<string>;
  };
};

/** SHA-256 of the client address and of its network: what the database keeps to count sign-ups, never the address. */
export function hashSignUpOrigin(clientIp: string): { addressHash: string; networkHash: string } {
  return { addressHash: sha256(`address:${clientIp}`), networkHash: sha256(`network:${networkOf(clientIp)}`) };
}

/**
 * Refuses a sign-up from a disposable e-mail domain, or past the day's budget of its address or network (counted
 * from the accounts in the database, so every node sees the same count).
 */
export async function checkSignUpLimits(
  deps: SignUpLimitDeps,
  input: { email: string; clientIp: string },
): Promise<{ addressHash: string; networkHash: string }> {
  const domain = input.email.slice(input.email.lastIndexOf('@') + 1).toLowerCase();
  if (isListedDomain(deps.signUpLimits.disposableEmailDomains, domain)) {
    throw new InvalidRequestError('Addresses of disposable e-mail services cannot sign up; use a lasting address.', {
      param: 'email',
      code: 'disposable_email',
    });
  }
  const origin = hashSignUpOrigin(input.clientIp);
  const sinceMs = deps.clock.nowMs() - dayMs;
  const checks = [
    { column: 'signup_address_hash', hash: origin.addressHash, limit: deps.signUpLimits.perAddressPerDay },
    { column: 'signup_network_hash', hash: origin.networkHash, limit: deps.signUpLimits.perNetworkPerDay },
  ] as const;
  for (const check of checks) {
    if (check.limit === 0) continue;
    const count = await countSignUpsSince(deps.db, { column: check.column, hash: check.hash, sinceMs });
    if (count >= check.limit) {
      throw new RateLimitError('Too many accounts were opened from your network today. Try again tomorrow.', {
        retryAfterSeconds: 3600,
        limitKind: 'requests',
      });
    }
  }
  return origin;
}

/** The /24 of an IPv4 address (also when mapped into IPv6) or the /64 of an IPv6 one. */
export function networkOf(clientIp: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(clientIp);
  const address = mapped?.[1] ?? clientIp;
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(address)) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]?.split('::') ?? [''];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = Math.max(8 - headGroups.length - tailGroups.length, 0);
  return [...headGroups, ...Array.from({ length: missing }, () => '0'), ...tailGroups].map((group) =>
    group.toLowerCase().replace(/^0+(?=.)/, ''),
  );
}

/** A domain is listed itself or through a parent (`mail.tempmail.example` under `tempmail.example`). */
function isListedDomain(domains: ReadonlySet<string>, domain: string): boolean {
  const labels = domain.split('.');
  return labels.some((_, index) => domains.has(labels.slice(index).join('.')));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
