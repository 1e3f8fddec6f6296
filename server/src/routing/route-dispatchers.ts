import type { Agent } from 'undici';
import type { UpstreamAddressPolicy } from '../upstream/create-guarded-connector.ts';
import { createUpstreamAgent } from '../upstream/create-upstream-agent.ts';

/**
 * Connection pools for routes with their own connect timeout: undici applies the connect timeout per pool, so each
 * distinct value gets one keep-alive pool, made on first use and closed with the gateway. Every pool applies the
 * SSRF guard (`addresses`).
 */
export function createRouteDispatchers(addresses: UpstreamAddressPolicy): {
  dispatcherFor: (connectTimeoutMs: number) => Agent;
  close: () => Promise<void>;
} {
  const agents = new Map<number, Agent>();
  return {
    dispatcherFor: (connectTimeoutMs) => {
      let agent = agents.get(connectTimeoutMs);
      if (!agent) {
        agent = createUpstreamAgent({ connectTimeoutMs, addresses });
        agents.set(connectTimeoutMs, agent);
      }
      return agent;
    },
    close: async () => {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}
