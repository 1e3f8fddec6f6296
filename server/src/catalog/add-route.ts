import { isIP } from 'node:net';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { findModel } from '../db/models.ts';
import { insertRoute } from '../db/routes.ts';
import type { NewRouteRow } from '../db/schema.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { isProviderId, providerIds } from '../providers/provider-id.ts';
import { checkRouteRow, convertRouteSettings, type RouteSettingsInput } from './route-settings.ts';

export type AddRouteDeps = { db: Database; clock: Clock; ids: IdGenerator; secretBox: SecretBox };

export type AddRouteInput = RouteSettingsInput & {
  modelId: string;
  provider: string;
  baseUrl: string;
  credential: string | undefined;
  upstreamModel: string | undefined;
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
  checkCredential(input.provider, input.credential);
  if (input.upstreamModel !== undefined && input.upstreamModel.trim() === '') {
    throw new InvalidRequestError('The upstream model must not be empty.', { param: 'upstream_model' });
  }
  const row: NewRouteRow = {
    id: deps.ids.newId('rte_'),
    model_id: input.modelId,
    provider: input.provider,
    base_url: input.baseUrl.replace(/\/+$/, ''),
    credential_ciphertext: input.credential ? deps.secretBox.seal(input.credential) : null,
    upstream_model: input.upstreamModel?.trim() ?? input.modelId,
    priority: 10,
    weight: 1,
    enabled: 1,
    is_sandbox: 0,
    created_at: deps.clock.nowMs(),
    ...convertRouteSettings(input),
  };
  await checkRouteRow(deps, row);
  await insertRoute(deps.db, row);
  await bumpCacheVersion(deps.db, 'routes');
  return { id: row.id };
}

/** Every hosted vendor needs our key; local servers (vLLM, Ollama, llama.cpp) may run without one. */
export function checkCredential(provider: string, credential: string | undefined): void {
  if (!credential && !localProviders.has(provider)) {
    throw new InvalidRequestError(`A ${provider} route needs a credential (the vendor API key or access token).`, {
      param: 'api_key',
    });
  }
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
