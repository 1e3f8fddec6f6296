import { addRoute } from '../catalog/add-route.ts';
import { readRouteOptions, type RouteSettingsInput } from '../catalog/route-settings.ts';
import { updateRoute } from '../catalog/update-route.ts';
import { listRoutes } from '../db/routes.ts';
import type { RouteRow } from '../db/schema.ts';
import { formatUsd, parseUsdToMicros } from '../lib/money.ts';
import { parseInteger, parseOptions, UsageError, type CliContext, type OptionSpec } from './cli-context.ts';
import { findAuditedRoute, recordCliAction } from './audit-commands.ts';

/** The settings `route add` and `route update` share (docs/routing.md). */
const settingOptions = {
  priority: { type: 'string' },
  weight: { type: 'string' },
  'input-cost-usd': { type: 'string' },
  'output-cost-usd': { type: 'string' },
  'cached-input-cost-usd': { type: 'string' },
  'per-image-cost-usd': { type: 'string' },
  'max-concurrency': { type: 'string' },
  'connect-timeout-ms': { type: 'string' },
  'first-byte-timeout-ms': { type: 'string' },
  'idle-timeout-ms': { type: 'string' },
  'reserved-for': { type: 'string' },
  'api-version': { type: 'string' },
  'vertex-project': { type: 'string' },
  'vertex-location': { type: 'string' },
} as const satisfies OptionSpec;

/** `route add|update|list|disable|enable`: operator-managed upstream routes. Credentials are never printed. */
export async function runRouteCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  if (action === 'add') return addRouteCommand(context, args);
  if (action === 'update') return updateRouteCommand(context, args);
  if (action === 'list') {
    parseOptions(args, {});
    const routes = await listRoutes(context.db);
    if (routes.length === 0) context.print('no operator routes (sandbox and environment routes are implicit)');
    for (const route of routes) context.print(describeRoute(route));
    return;
  }
  if (action === 'disable' || action === 'enable') {
    const options = parseOptions(args, { id: { type: 'string', required: true } });
    const before = await findAuditedRoute(context, options.id ?? '');
    await updateRoute(
      { ...context, secretBox: context.secretBox() },
      {
        routeId: options.id ?? '',
        update: { isEnabled: action === 'enable' },
        allowPrivateUpstreams: context.config.allowPrivateUpstreams,
      },
    );
    await recordRouteChange(context, { routeId: options.id ?? '', before });
    context.print(`route ${options.id} ${action}d`);
    return;
  }
  throw new UsageError(`unknown route command "${action ?? ''}" (expected: add, update, list, disable, enable)`);
}

async function addRouteCommand(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, {
    model: { type: 'string', required: true },
    provider: { type: 'string', required: true },
    'base-url': { type: 'string', required: true },
    'api-key': { type: 'string' },
    'upstream-model': { type: 'string' },
    ...settingOptions,
  });
  const route = await addRoute(
    { ...context, secretBox: context.secretBox() },
    {
      ...readSettings(options),
      modelId: options.model ?? '',
      provider: options.provider ?? '',
      baseUrl: options['base-url'] ?? '',
      credential: options['api-key'],
      upstreamModel: options['upstream-model'],
      allowPrivateUpstreams: context.config.allowPrivateUpstreams,
    },
  );
  await recordRouteChange(context, { routeId: route.id, before: undefined });
  context.print(`added route ${route.id} for ${options.model} via ${options.provider}`);
}

async function updateRouteCommand(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, {
    id: { type: 'string', required: true },
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    'upstream-model': { type: 'string' },
    ...settingOptions,
  });
  const before = await findAuditedRoute(context, options.id ?? '');
  await updateRoute(
    { ...context, secretBox: context.secretBox() },
    {
      routeId: options.id ?? '',
      allowPrivateUpstreams: context.config.allowPrivateUpstreams,
      update: {
        ...readSettings(options),
        ...(options['base-url'] === undefined ? {} : { baseUrl: options['base-url'] }),
        ...(options['api-key'] === undefined ? {} : { credential: options['api-key'] }),
        ...(options['upstream-model'] === undefined ? {} : { upstreamModel: options['upstream-model'] }),
      },
    },
  );
  await recordRouteChange(context, { routeId: options.id ?? '', before });
  context.print(`updated route ${options.id}`);
}

type SettingValues = { [Name in keyof typeof settingOptions]: string | undefined };

/** Option text → settings. `none` clears a setting back to its default. */
function readSettings(options: SettingValues): RouteSettingsInput {
  const settings: RouteSettingsInput = {};
  const integer = (name: keyof SettingValues, bounds: { min: number; max: number }) => {
    const text = options[name];
    if (text === undefined) return undefined;
    return text === 'none' ? null : parseInteger(name, text, bounds);
  };
  const usd = (name: 'input-cost-usd' | 'output-cost-usd' | 'cached-input-cost-usd' | 'per-image-cost-usd') => {
    const text = options[name];
    if (text === undefined || text === 'none') return text === undefined ? undefined : null;
    const micros = parseUsdToMicros(text);
    if (micros === undefined || micros < 0) {
      throw new UsageError(`--${name} must be a non-negative USD amount per 1M tokens, got "${text}"`);
    }
    return micros;
  };
  const text = (name: 'api-version' | 'vertex-project' | 'vertex-location') =>
    options[name] === 'none' ? null : options[name];
  const assign = <Key extends keyof RouteSettingsInput>(key: Key, value: RouteSettingsInput[Key] | undefined) => {
    if (value !== undefined) settings[key] = value;
  };
  if (options.priority !== undefined) {
    settings.priority = parseInteger('priority', options.priority, { min: 0, max: 1_000_000 });
  }
  if (options.weight !== undefined) {
    settings.weight = parseInteger('weight', options.weight, { min: 0, max: 1_000_000 });
  }
  assign('inputCostMicros', usd('input-cost-usd'));
  assign('outputCostMicros', usd('output-cost-usd'));
  assign('cachedInputCostMicros', usd('cached-input-cost-usd'));
  assign('perRequestCostMicros', usd('per-image-cost-usd'));
  assign('maxConcurrency', integer('max-concurrency', { min: 1, max: 100_000 }));
  assign('connectTimeoutMs', integer('connect-timeout-ms', { min: 100, max: 600_000 }));
  assign('firstByteTimeoutMs', integer('first-byte-timeout-ms', { min: 100, max: 3_600_000 }));
  assign('idleTimeoutMs', integer('idle-timeout-ms', { min: 100, max: 3_600_000 }));
  const reserved = options['reserved-for'];
  if (reserved !== undefined) {
    settings.reservedForUserIds = reserved === 'none' ? null : reserved.split(',').map((id) => id.trim());
  }
  const vendorOptions = Object.fromEntries(
    (
      [
        ['api_version', 'api-version'],
        ['vertex_project', 'vertex-project'],
        ['vertex_location', 'vertex-location'],
      ] as const
    ).flatMap(([name, flag]) => {
      const value = text(flag);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  if (Object.keys(vendorOptions).length > 0) settings.options = vendorOptions;
  return settings;
}

function describeRoute(route: RouteRow): string {
  const optional = (label: string, value: string | number | null) => (value === null ? [] : [`${label}=${value}`]);
  return [
    route.id,
    route.model_id,
    route.provider,
    route.base_url,
    `upstream=${route.upstream_model}`,
    `priority=${route.priority}`,
    `weight=${route.weight}`,
    ...optional('input_cost', route.input_cost_micros === null ? null : `${formatUsd(route.input_cost_micros)}/1M`),
    ...optional('output_cost', route.output_cost_micros === null ? null : `${formatUsd(route.output_cost_micros)}/1M`),
    ...optional('max_concurrency', route.max_concurrency),
    ...optional('connect_timeout_ms', route.connect_timeout_ms),
    ...optional('first_byte_timeout_ms', route.first_byte_timeout_ms),
    ...optional('idle_timeout_ms', route.idle_timeout_ms),
    ...optional('reserved_for', route.reserved_for_user_ids?.split('\n').join(',') ?? null),
    ...Object.entries(readRouteOptions(route.vendor_options)).map(([name, value]) => `${name}=${value}`),
    route.enabled ? 'enabled' : 'disabled',
    route.credential_ciphertext ? 'credential=set' : 'credential=none',
  ].join('  ');
}

async function recordRouteChange(context: CliContext, input: { routeId: string; before: object | undefined }) {
  await recordCliAction(context, {
    action: input.before === undefined ? 'createRoute' : 'updateRoute',
    target: { kind: 'route', id: input.routeId },
    before: input.before,
    after: await findAuditedRoute(context, input.routeId),
  });
}
