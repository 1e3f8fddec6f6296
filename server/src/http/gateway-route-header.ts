/**
 * `x-gateway-route: <route id>` on answers to operator keys only (docs/routing.md): customers never learn which
 * upstream served them.
 */
export function gatewayRouteHeader(caller: { isOperator: boolean }, routeId: string): Record<string, string> {
  return caller.isOperator ? { 'x-gateway-route': routeId } : {};
}
