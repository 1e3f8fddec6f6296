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
import { vendors } from '../providers/vendors.ts';
import { checkUpstreamUrl } from './check-upstream-url.ts';
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
  await checkUpstreamUrl(input.baseUrl, { allowPrivateUpstreams: input.allowPrivateUpstreams });
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
    ...convertRouteSettings(input, null),
  };
  await checkRouteRow(deps, row);
  await insertRoute(deps.db, row);
  await bumpCacheVersion(deps.db, 'routes');
  return { id: row.id };
}

/** Every hosted vendor needs our key; local servers (vLLM, Ollama, llama.cpp) may run without one. */
export function checkCredential(provider: string, credential: string | undefined): void {
  if (!credential && !(isProviderId(provider) && vendors[provider].isLocal)) {
    throw new InvalidRequestError(
      `Routes to \`${provider}\` need a credential (the vendor's API key or access token).`,
      {
        param: 'api_key',
      },
    );
  }
}
