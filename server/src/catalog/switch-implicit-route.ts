import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { setImplicitRouteDisabled } from '../db/disabled-implicit-routes.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { RouteTable } from './route-table.ts';

export type SwitchImplicitRouteDeps = { db: Database; clock: Clock; routeTable: RouteTable };

/** Whether a route id names a route the gateway derives from its configuration (a vendor key, or a simulator). */
export function isImplicitRouteId(routeId: string): boolean {
  return routeId.startsWith('environment:') || routeId.startsWith('sandbox:');
}

/**
 * Switches an environment or sandbox route off or back on, so an operator can take a sick upstream out of rotation
 * even when it comes from the configuration. Its other settings live in the configuration, so a change of anything
 * but `enabled` is refused, naming the field; the caller reloads the route table, and other nodes follow through the
 * `routes` cache version.
 */
export async function switchImplicitRoute(
  deps: SwitchImplicitRouteDeps,
  input: { routeId: string; isEnabled: boolean | undefined; otherFields: readonly string[] },
): Promise<void> {
  const isKnown = [...deps.routeTable.allRoutes(), ...deps.routeTable.disabledImplicitRoutes()].some(
    (route) => route.id === input.routeId && route.origin !== 'database',
  );
  if (!isKnown) throw new NotFoundError(`No route has the id "${input.routeId}".`, { param: 'id' });
  const [field] = input.otherFields;
  if (field !== undefined) {
    throw new InvalidRequestError(
      `A route from the configuration or the sandbox can only be enabled or disabled; to change its \`${field}\`, add a route of your own and disable this one.`,
      { param: field },
    );
  }
  if (input.isEnabled === undefined) return;
  await setImplicitRouteDisabled(deps.db, {
    routeId: input.routeId,
    isDisabled: !input.isEnabled,
    nowMs: deps.clock.nowMs(),
  });
  await bumpCacheVersion(deps.db, 'routes');
}
