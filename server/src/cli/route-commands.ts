import { addRoute } from '../catalog/add-route.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import { listRoutes, setRouteEnabled } from '../db/routes.ts';
import { parseInteger, parseOptions, UsageError, type CliContext } from './cli-context.ts';

/** `route add|list|disable|enable`: operator-managed upstream routes. Credentials are never printed. */
export async function runRouteCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  if (action === 'add') return addRouteCommand(context, args);
  if (action === 'list') {
    parseOptions(args, {});
    const routes = await listRoutes(context.db);
    if (routes.length === 0) context.print('no operator routes (sandbox and environment routes are implicit)');
    for (const route of routes) {
      context.print(
        [
          route.id,
          route.model_id,
          route.provider,
          route.base_url,
          `upstream=${route.upstream_model}`,
          `priority=${route.priority}`,
          `weight=${route.weight}`,
          route.enabled ? 'enabled' : 'disabled',
          route.credential_ciphertext ? 'credential=set' : 'credential=none',
        ].join('  '),
      );
    }
    return;
  }
  if (action === 'disable' || action === 'enable') {
    const options = parseOptions(args, { id: { type: 'string', required: true } });
    const isChanged = await setRouteEnabled(context.db, { routeId: options.id ?? '', isEnabled: action === 'enable' });
    if (!isChanged) throw new UsageError(`no route with id ${options.id}`);
    await bumpCacheVersion(context.db, 'routes');
    context.print(`route ${options.id} ${action}d`);
    return;
  }
  throw new UsageError(`unknown route command "${action ?? ''}" (expected: add, list, disable, enable)`);
}

async function addRouteCommand(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, {
    model: { type: 'string', required: true },
    provider: { type: 'string', required: true },
    'base-url': { type: 'string', required: true },
    'api-key': { type: 'string' },
    'upstream-model': { type: 'string' },
    priority: { type: 'string' },
    weight: { type: 'string' },
  });
  const route = await addRoute(
    { ...context, secretBox: context.secretBox() },
    {
      modelId: options.model ?? '',
      provider: options.provider ?? '',
      baseUrl: options['base-url'] ?? '',
      credential: options['api-key'],
      upstreamModel: options['upstream-model'],
      priority:
        options.priority === undefined ? 10 : parseInteger('priority', options.priority, { min: 0, max: 1_000_000 }),
      weight: options.weight === undefined ? 1 : parseInteger('weight', options.weight, { min: 0, max: 1_000_000 }),
      allowPrivateUpstreams: context.config.allowPrivateUpstreams,
    },
  );
  context.print(`added route ${route.id} for ${options.model} via ${options.provider}`);
}
