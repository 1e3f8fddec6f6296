import type { RouteTable } from '../catalog/route-table.ts';
import type { Routing } from '../routing/create-routing.ts';
import type { OperatorAlerts } from './operator-alerts.ts';

/**
 * Looks at every route's circuit breaker and alerts the operators when one opens (a change from closed): the
 * breakers live in routing/ and are read here, so watching them adds nothing to the request path.
 */
export function watchRouteCircuits(deps: {
  routeTable: Pick<RouteTable, 'allRoutes'>;
  routing: Pick<Routing, 'viewOf'>;
  alerts: OperatorAlerts;
  consoleUrl: string;
}): { check: () => void } {
  const openRoutes = new Set<string>();
  return {
    check: () => {
      for (const route of deps.routeTable.allRoutes()) {
        const isOpen = deps.routing.viewOf({ id: route.id }).breakerState !== 'closed';
        if (isOpen && !openRoutes.has(route.id)) {
          deps.alerts.raise(`route:${route.id}`, {
            kind: 'route-circuit-open',
            routeId: route.id,
            modelId: route.modelId,
            consoleUrl: deps.consoleUrl,
          });
        }
        if (isOpen) openRoutes.add(route.id);
        else openRoutes.delete(route.id);
      }
    },
  };
}
