import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { findRoute, updateRoute as updateRouteRow } from '../db/routes.ts';
import type { NewRouteRow } from '../db/schema.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { checkUpstreamUrl } from './check-upstream-url.ts';
import { checkRouteRow, convertRouteSettings, type RouteSettingsInput } from './route-settings.ts';

export type UpdateRouteDeps = { db: Database; clock: Clock; secretBox: SecretBox };

export type RouteUpdate = RouteSettingsInput & {
  baseUrl?: string;
  /** A new credential replaces the old one; it is sealed with the master key before it is written. */
  credential?: string;
  upstreamModel?: string;
  isEnabled?: boolean;
};

/**
 * Changes an operator route. The route as it will be stored is checked as a whole (an Azure route keeps a valid
 * api-version, a Vertex route its project and location), then every node reloads its route table.
 */
export async function updateRoute(
  deps: UpdateRouteDeps,
  input: { routeId: string; update: RouteUpdate; allowPrivateUpstreams: boolean },
): Promise<void> {
  const existing = await findRoute(deps.db, input.routeId);
  if (!existing) throw new NotFoundError(`No route has the id "${input.routeId}".`, { param: 'id' });
  const { update } = input;
  const changes: Partial<NewRouteRow> = {
    ...convertRouteSettings(update, existing.vendor_options),
    updated_at: deps.clock.nowMs(),
  };
  if (update.baseUrl !== undefined) {
    await checkUpstreamUrl(update.baseUrl, { allowPrivateUpstreams: input.allowPrivateUpstreams });
    changes.base_url = update.baseUrl.replace(/\/+$/, '');
  }
  if (update.credential !== undefined) {
    if (update.credential === '') {
      throw new InvalidRequestError('The credential must not be empty.', { param: 'api_key' });
    }
    changes.credential_ciphertext = deps.secretBox.seal(update.credential);
  }
  if (update.upstreamModel !== undefined) {
    if (update.upstreamModel.trim() === '') {
      throw new InvalidRequestError('The upstream model must not be empty.', { param: 'upstream_model' });
    }
    changes.upstream_model = update.upstreamModel.trim();
  }
  if (update.isEnabled !== undefined) changes.enabled = update.isEnabled ? 1 : 0;
  await checkRouteRow(deps, { ...existing, ...changes });
  await updateRouteRow(deps.db, { routeId: input.routeId, changes });
  await bumpCacheVersion(deps.db, 'routes');
}
