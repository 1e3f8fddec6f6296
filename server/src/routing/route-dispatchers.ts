import type { Agent } from 'undici';
import { createUpstreamAgent } from '../providers/shared/post-json.ts';

/**
 * Connection pools for routes with their own connect timeout: undici applies the connect timeout per pool, so each
 * distinct value gets one keep-alive pool, made on first use and closed with the gateway.
 */
export function createRouteDispatchers(): {
  dispatcherFor: (connectTimeoutMs: number) => Agent;
  close: () => Promise<void>;
} {
  const agents = new Map<number, Agent>();
  return {
    dispatcherFor: (connectTimeoutMs) => {
      let agent = agents.get(connectTimeoutMs);
      if (!agent) {
        agent = createUpstreamAgent({ connectTimeoutMs });
        agents.set(connectTimeoutMs, agent);
      }
      return agent;
    },
    close: async () => {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}
