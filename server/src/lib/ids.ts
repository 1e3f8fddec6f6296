import { randomBytes, randomUUID } from 'node:crypto';

/** Ids and random secrets come through deps so tests can make them deterministic. */
export type IdGenerator = {
  /** A new unique id with the given prefix, e.g. `chatcmpl-…`, `req_…`. */
  newId: (prefix: string) => string;
  /**
   * A new unique id of the same form as `newId`'s (prefix and 32 hex characters) whose text starts with its
   * creation time, for the rows every call writes (request ids, usage ledger transactions): consecutive ids land on
   * the same index pages instead of random ones, which is most of what a group commit of the SQLite writer thread
   * costs. The id reveals the millisecond it was made, nothing else (decision 1890); secrets never use it.
   */
  newTimeOrderedId: (prefix: string) => string;
  /** `byteCount` random bytes as base64url. */
  randomToken: (byteCount: number) => string;
};

export const cryptoIds: IdGenerator = {
  newId: (prefix) => `${prefix}${randomUUID().replaceAll('-', '')}`,
  newTimeOrderedId: (prefix) => timeOrderedId(prefix, Date.now(), randomUUID()),
  randomToken: (byteCount) => randomBytes(byteCount).toString('base64url'),
};

/** Milliseconds that fit the id's 48-bit time field (until the year 10889). */
const maxTimeMs = 2 ** 48 - 1;

/**
 * `prefix` and a UUID version 7 (RFC 9562) as 32 hex characters: the Unix time in milliseconds in the first 12, the
 * version digit `7`, then the 74 random bits of `randomV4` (a version 4 UUID as `randomUUID` writes it), whose
 * variant bits stay where a version 7 has them. Ids made in different milliseconds sort by time; within one they
 * are as random as any.
 */
export function timeOrderedId(prefix: string, nowMs: number, randomV4: string): string {
  if (!Number.isSafeInteger(nowMs) || nowMs < 0 || nowMs > maxTimeMs) throw new RangeError(`time ${nowMs} ms`);
  // xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx: everything after the version digit, without the dashes.
  const random = `${randomV4.slice(15, 18)}${randomV4.slice(19, 23)}${randomV4.slice(24, 36)}`;
  return `${prefix}${nowMs.toString(16).padStart(12, '0')}7${random}`;
}
