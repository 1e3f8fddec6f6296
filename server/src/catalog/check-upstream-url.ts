import { lookup } from 'node:dns/promises';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { describeRefusal } from '../upstream/create-guarded-connector.ts';
import { parseAddress } from '../upstream/find-reserved-range.ts';

/** The addresses a host name resolves to; empty when it does not resolve (now). */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

const resolveTimeoutMs = 5_000;
/** Names that only ever mean a machine on the local network (RFC 6761, mDNS, private DNS zones). */
const localSuffixes = ['.localhost', '.local', '.internal', '.home.arpa'];

/**
 * SSRF guard at route creation: an upstream must be an http(s) URL without embedded credentials, on a public
 * address, unless the operator allows private upstreams (`ALLOW_PRIVATE_UPSTREAMS=true`, needed for local vLLM or
 * Ollama servers). A host name is resolved now and refused when any of its addresses is private or reserved. A name
 * that does not resolve yet is accepted: the same guard runs again on every connection (`createGuardedConnector`), which
 * is also what stops a name that is later pointed at a private address (DNS rebinding).
 */
export async function checkUpstreamUrl(
  text: string,
  input: { allowPrivateUpstreams: boolean; resolveHost?: ResolveHost },
): Promise<void> {
  const url = parseUpstreamUrl(text);
  if (input.allowPrivateUpstreams) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const isLocalName = localSuffixes.some((suffix) => host.endsWith(suffix));
  const refusal = isLocalName
    ? `The upstream address ${host} is a local network name.`
    : describeRefusal(host, parseAddress(host) ? [host] : await (input.resolveHost ?? resolveHost)(host));
  if (refusal) {
    throw new InvalidRequestError(
      `${refusal} Upstreams on private or loopback addresses are refused; set ALLOW_PRIVATE_UPSTREAMS=true to allow them.`,
      { param: 'base_url', code: 'private_upstream_refused' },
    );
  }
}

function parseUpstreamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidRequestError(`The base URL "${text}" is not a valid URL.`, { param: 'base_url' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidRequestError('The base URL must use http or https.', { param: 'base_url' });
  }
  if (url.username || url.password) {
    throw new InvalidRequestError('Put the credential in the api key, not in the base URL.', { param: 'base_url' });
  }
  return url;
}

/** The system resolver, as connections use it; an error or a resolver slower than 5 s counts as "does not resolve". */
export const resolveHost: ResolveHost = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<readonly string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), resolveTimeoutMs);
    timer.unref();
  });
  const resolved = lookup(hostname, { all: true, verbatim: true }).then(
    (addresses) => addresses.map((entry) => entry.address),
    () => [],
  );
  try {
    return await Promise.race([resolved, timeout]);
  } finally {
    clearTimeout(timer);
  }
};
