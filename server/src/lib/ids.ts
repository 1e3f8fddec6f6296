import { randomBytes, randomUUID } from 'node:crypto';

/** Ids and random secrets come through deps so tests can make them deterministic. */
export type IdGenerator = {
  /** A new unique id with the given prefix, e.g. `chatcmpl-…`, `req_…`. */
  newId: (prefix: string) => string;
  /** `byteCount` random bytes as base64url. */
  randomToken: (byteCount: number) => string;
};

export const cryptoIds: IdGenerator = {
  newId: (prefix) => `${prefix}${randomUUID().replaceAll('-', '')}`,
  randomToken: (byteCount) => randomBytes(byteCount).toString('base64url'),
};
