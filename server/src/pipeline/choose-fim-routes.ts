import type { Route } from '../catalog/route-table.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ProviderAdapter } from '../providers/provider-adapter.ts';
import { findFimAdapter } from '../providers/registry.ts';

/**
 * The routes that can serve a fill-in-the-middle completion (`/v1/completions` with `suffix`): those whose vendor has
 * a FIM API, called through it. None → a 400 naming `suffix`, before anything is held.
 */
export function chooseFimRoutes(
  routes: readonly Route[],
  input: { suffix: string; modelId: string },
): { routes: Route[]; adapterFor: (route: Route) => ProviderAdapter | undefined } {
  const adapters = new Map<string, ProviderAdapter>();
  for (const route of routes) {
    const adapter = findFimAdapter(route.provider, input.suffix);
    if (adapter) adapters.set(route.id, adapter);
  }
  const usable = routes.filter((route) => adapters.has(route.id));
  if (usable.length === 0) {
    throw new InvalidRequestError(
      `suffix (fill-in-the-middle) is not supported for the model \`${input.modelId}\`: its vendor has no fill-in-the-middle API. Send the text before the cursor as the prompt, without suffix, or use a model with one (docs/api.md).`,
      { param: 'suffix', code: 'unsupported_parameter' },
    );
  }
  return { routes: usable, adapterFor: (route) => adapters.get(route.id) };
}
