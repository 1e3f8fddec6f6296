import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { findReservedRange, parseAddress } from './find-reserved-range.ts';

/** Which upstream addresses the gateway may connect to (docs/routing.md, "SSRF guard"). */
export type UpstreamAddressPolicy = {
  /** `ALLOW_PRIVATE_UPSTREAMS=true`: private and loopback upstreams are allowed (local vLLM, Ollama, llama.cpp). */
  allowPrivate: boolean;
  /**
   * Origins the guard lets through: only the sandbox simulator, which the gateway starts itself on loopback
   * (`http://127.0.0.1:40123`). Matched on the exact origin, so a host name that resolves there is still refused.
   */
  trustedOrigins: readonly string[];
};

/** A connection refused by the SSRF guard; postJson reports it as the route failing, with this code. */
export class PrivateUpstreamError extends Error {
  readonly code = 'private_upstream_refused';
}

/**
 * undici's connector with the SSRF guard at connect time: an IP literal on a private or reserved range is refused,
 * and a host name is resolved by a lookup that refuses it when any of its addresses is (the socket then connects to
 * the address that was checked, so DNS rebinding cannot reach a private address between check and connect).
 */
export function createGuardedConnector(input: {
  connectTimeoutMs: number;
  policy: UpstreamAddressPolicy;
}): buildConnector.connector {
  const connectAnywhere = buildConnector({ timeout: input.connectTimeoutMs });
  if (input.policy.allowPrivate) return connectAnywhere;
  const connectChecked = buildConnector({ timeout: input.connectTimeoutMs, lookup: lookupPublicAddress });
  const trusted = new Set(input.policy.trustedOrigins.map((origin) => new URL(origin).origin));
  return (options, callback) => {
    if (trusted.has(`${options.protocol}//${options.host ?? ''}`)) return connectAnywhere(options, callback);
    if (parseAddress(options.hostname)) {
      const refusal = describeRefusal(options.hostname, [options.hostname]);
      if (refusal) return callback(new PrivateUpstreamError(refusal), null);
    }
    return connectChecked(options, callback);
  };
}

/** Why a host may not be an upstream, given the addresses it resolves to; undefined when every one is public. */
export function describeRefusal(hostname: string, addresses: readonly string[]): string | undefined {
  for (const address of addresses) {
    const range = findReservedRange(address);
    if (range === undefined) continue;
    const where = address === hostname ? address : `${hostname}, which resolves to ${address},`;
    return `The upstream address ${where} is ${range === 'not an IP address' ? 'not valid' : `a ${range} address`}.`;
  }
  return undefined;
}

/** `net.connect`'s lookup: the system resolver's answer, refused as a whole when any address is not public. */
const lookupPublicAddress: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refusal = describeRefusal(
      hostname,
      addresses.map((entry) => entry.address),
    );
    if (refusal) return callback(new PrivateUpstreamError(refusal), '');
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]?.address ?? '', addresses[0]?.family);
  });
};
