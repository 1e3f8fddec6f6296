import type { SimulatorResponse } from './start-simulator-server.ts';

/**
 * Remembers the answer given for each idempotency key (with a fingerprint of the request), so a repeat with the same
 * key gets the same answer, as the providers document. Keys live as long as the simulator (providers keep them ≥ 24 h).
 */
export type IdempotencyStore = {
  find: (key: string) => { fingerprint: string; response: SimulatorResponse } | undefined;
  save: (key: string, entry: { fingerprint: string; response: SimulatorResponse }) => void;
};

export function createIdempotencyStore(): IdempotencyStore {
  const entries = new Map<string, { fingerprint: string; response: SimulatorResponse }>();
  return { find: (key) => entries.get(key), save: (key, entry) => entries.set(key, entry) };
}
