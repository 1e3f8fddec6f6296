import type { ProviderId } from '../../server/src/providers/provider-id.ts';
import { createPromptCache, type PromptCache } from './prompt-cache.ts';

/** What `GET /_sim/stats` reports. */
export type SimulatorStats = {
  requestsByVendor: Record<ProviderId, number>;
  totalRequests: number;
  openStreams: number;
  completedStreams: number;
  /** Streams the client disconnected from before the simulator finished them. */
  abortedStreams: number;
};

/** Everything the simulator remembers between requests: counters and hashes only, never request text. */
export type SimulatorState = {
  stats: SimulatorStats;
  promptCache: PromptCache;
  /** Responses API ids issued, so `previous_response_id` can be checked like the real API does. */
  issuedResponseIds: Set<string>;
  nextRequestNumber: () => number;
  nowUnixSeconds: () => number;
  reset: () => void;
};

export function createSimulatorState(input: { nowMs: () => number; vendorIds: readonly ProviderId[] }): SimulatorState {
  let requestNumber = 0;
  const state: SimulatorState = {
    stats: emptyStats(input.vendorIds),
    promptCache: createPromptCache(),
    issuedResponseIds: new Set(),
    nextRequestNumber: () => {
      requestNumber += 1;
      return requestNumber;
    },
    nowUnixSeconds: () => Math.floor(input.nowMs() / 1000),
    reset: () => {
      const openStreams = state.stats.openStreams;
      state.stats = { ...emptyStats(input.vendorIds), openStreams };
      state.promptCache.clear();
      state.issuedResponseIds.clear();
    },
  };
  return state;
}

function emptyStats(vendorIds: readonly ProviderId[]): SimulatorStats {
  const requestsByVendor = Object.fromEntries(vendorIds.map((id) => [id, 0])) as Record<ProviderId, number>;
  return { requestsByVendor, totalRequests: 0, openStreams: 0, completedStreams: 0, abortedStreams: 0 };
}
