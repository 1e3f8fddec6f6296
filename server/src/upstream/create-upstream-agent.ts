import { Agent } from 'undici';
import { createGuardedConnector, type UpstreamAddressPolicy } from './create-guarded-connector.ts';

/**
 * A keep-alive connection pool for one upstream host family, with the connect timeout applied per connection and the
 * SSRF guard checking every address it connects to (`addresses`).
 */
export function createUpstreamAgent(input: {
  connectTimeoutMs: number;
  addresses: UpstreamAddressPolicy;
  keepAliveTimeoutMs?: number;
}): Agent {
  return new Agent({
    connect: createGuardedConnector({ connectTimeoutMs: input.connectTimeoutMs, policy: input.addresses }),
    keepAliveTimeout: input.keepAliveTimeoutMs ?? 30_000,
    // Timeouts per request come from each call; these only stop undici's own defaults (300 s) from cutting a stream.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}
