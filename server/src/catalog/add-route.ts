import { isIP } from 'node:net';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { findModel } from '../db/models.ts';
import { insertRoute } from '../db/routes.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { isProviderId, providerIds } from '../providers/provider-id.ts';

export type AddRouteDeps = { db: Database; clock: Clock; ids: IdGenerator; secretBox: SecretBox };

export type AddRouteInput = {
  modelId: string;
  provider: string;
  baseUrl: string;
  credential: string | undefined;
  upstreamModel: string | undefined;
  priority: number;
  weight: number;
  allowPrivateUpstreams: boolean;
};

const localProviders = new Set(['vllm', 'ollama', 'llamacpp']);

/** Validates and stores an operator route; the credential is sealed with the master key before it is written. */
export async function addRoute(deps: AddRouteDeps, input: AddRouteInput): Promise<{ id: string }> {
  if (!isProviderId(input.provider)) {
    throw new InvalidRequestError(`Unknown provider "${input.provider}"; expected one of: ${providerIds.join(', ')}.`, {
      param: 'provider',
    });
  }
  if (!(await findModel(deps.db, input.modelId))) {
    throw new InvalidRequestError(`The model \`${input.modelId}\` is not in the catalogue.`, { param: 'model' });
  }
  checkUpstreamUrl(input.baseUrl, input.allowPrivateUpstreams);
  if (!input.credential && !localProviders.has(input.provider)) {
    throw new InvalidRequestError(`A ${input.provider} route needs a credential (the vendor API key).`, {
      param: 'api_key',
    });
  }
  if (input.weight < 0 || !Number.isInteger(input.weight)) {
    throw new InvalidRequestError('The weight must be a non-negative whole number.', { param: 'weight' });
  }
  const id = deps.ids.newId('rte_');
  await insertRoute(deps.db, {
    id,
    model_id: input.modelId,
    provider: input.provider,
    base_url: input.baseUrl.replace(/\/+$/, ''),
    credential_ciphertext: input.credential ? deps.secretBox.seal(input.credential) : null,
    upstream_model: input.upstreamModel ?? input.modelId,
    priority: input.priority,
    weight: input.weight,
    enabled: 1,
    is_sandbox: 0,
    created_at: deps.clock.nowMs(),
  });
  await bumpCacheVersion(deps.db, 'routes');
  return { id };
}

/**
 * SSRF guard: an upstream must be an http(s) URL on a public host unless the operator allows private upstreams
 * (`ALLOW_PRIVATE_UPSTREAMS=true`, needed for local vLLM or Ollama servers).
 */
export function checkUpstreamUrl(text: string, allowPrivateUpstreams: boolean): void {
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
  if (!allowPrivateUpstreams && isPrivateHost(url.hostname)) {
    throw new InvalidRequestError(
      `The base URL points at a private or loopback address (${url.hostname}); set ALLOW_PRIVATE_UPSTREAMS=true to allow it.`,
      { param: 'base_url', code: 'private_upstream_refused' },
    );
  }
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    return true;
  }
  if (isIP(host) === 4) {
    const [a = 0, b = 0] = host.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (isIP(host) === 6) {
    return (
      host === '::1' ||
      host === '::' ||
      host.startsWith('fc') ||
      host.startsWith('fd') ||
      host.startsWith('fe80') ||
      host.startsWith('::ffff:')
    );
  }
  return false;
}
