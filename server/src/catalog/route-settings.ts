import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { NewRouteRow, RoutesTable } from '../db/schema.ts';
import { findUserById } from '../db/users.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { isProviderId, providerIds } from '../providers/provider-id.ts';
import type { RouteOptionName, RouteOptions } from '../providers/vendor-definition.ts';
import { vendors } from '../providers/vendors.ts';

/**
 * The operating settings of a route, as the CLI and the operator API give them. Undefined: leave as is (or the
 * default on creation); null: clear back to the default.
 */
export type RouteSettingsInput = {
  priority?: number;
  weight?: number;
  /** What the upstream charges us, micro-USD per 1M tokens. */
  inputCostMicros?: number | null;
  outputCostMicros?: number | null;
  /** Cached input per 1M tokens and one image, micro-USD. */
  cachedInputCostMicros?: number | null;
  perRequestCostMicros?: number | null;
  maxConcurrency?: number | null;
  connectTimeoutMs?: number | null;
  firstByteTimeoutMs?: number | null;
  idleTimeoutMs?: number | null;
  reservedForUserIds?: readonly string[] | null;
  /** The vendor's own settings by name; a null value removes that setting, an absent one leaves it as is. */
  options?: Readonly<Partial<Record<RouteOptionName, string | null>>>;
};

/** The columns the settings fill. */
export type RouteSettingColumns = Partial<
  Pick<
    RoutesTable,
    | 'priority'
    | 'weight'
    | 'input_cost_micros'
    | 'output_cost_micros'
    | 'cached_input_cost_micros'
    | 'per_request_cost_micros'
    | 'max_concurrency'
    | 'connect_timeout_ms'
    | 'first_byte_timeout_ms'
    | 'idle_timeout_ms'
    | 'reserved_for_user_ids'
    | 'vendor_options'
  >
>;

type Bounds = { min: number; max: number; param: string; what: string };

const integerSettings = {
  priority: { min: 0, max: 1_000_000, param: 'priority', what: 'The priority' },
  weight: { min: 0, max: 1_000_000, param: 'weight', what: 'The weight' },
  inputCostMicros: { min: 0, max: 1e12, param: 'input_cost_micros', what: 'The input cost' },
  outputCostMicros: { min: 0, max: 1e12, param: 'output_cost_micros', what: 'The output cost' },
  cachedInputCostMicros: { min: 0, max: 1e12, param: 'cached_input_cost_micros', what: 'The cached input cost' },
  perRequestCostMicros: { min: 0, max: 1e12, param: 'per_request_cost_micros', what: 'The per-image cost' },
  maxConcurrency: { min: 1, max: 100_000, param: 'max_concurrency', what: 'The concurrency cap' },
  connectTimeoutMs: { min: 100, max: 600_000, param: 'connect_timeout_ms', what: 'The connect timeout' },
  firstByteTimeoutMs: { min: 100, max: 3_600_000, param: 'first_byte_timeout_ms', what: 'The first-byte timeout' },
  idleTimeoutMs: { min: 100, max: 3_600_000, param: 'idle_timeout_ms', what: 'The idle timeout' },
} as const satisfies Record<string, Bounds>;

/**
 * Checks each given setting on its own and turns it into column values; the vendor options given are merged into
 * the route's stored ones (`storedOptions`, null for a new route).
 */
export function convertRouteSettings(input: RouteSettingsInput, storedOptions: string | null): RouteSettingColumns {
  const changes: RouteSettingColumns = {};
  if (input.priority !== undefined) changes.priority = checkInteger(input.priority, integerSettings.priority);
  if (input.weight !== undefined) changes.weight = checkInteger(input.weight, integerSettings.weight);
  const nullable = (value: number | null, bounds: Bounds) => (value === null ? null : checkInteger(value, bounds));
  if (input.inputCostMicros !== undefined) {
    changes.input_cost_micros = nullable(input.inputCostMicros, integerSettings.inputCostMicros);
  }
  if (input.outputCostMicros !== undefined) {
    changes.output_cost_micros = nullable(input.outputCostMicros, integerSettings.outputCostMicros);
  }
  if (input.cachedInputCostMicros !== undefined) {
    changes.cached_input_cost_micros = nullable(input.cachedInputCostMicros, integerSettings.cachedInputCostMicros);
  }
  if (input.perRequestCostMicros !== undefined) {
    changes.per_request_cost_micros = nullable(input.perRequestCostMicros, integerSettings.perRequestCostMicros);
  }
  if (input.maxConcurrency !== undefined) {
    changes.max_concurrency = nullable(input.maxConcurrency, integerSettings.maxConcurrency);
  }
  if (input.connectTimeoutMs !== undefined) {
    changes.connect_timeout_ms = nullable(input.connectTimeoutMs, integerSettings.connectTimeoutMs);
  }
  if (input.firstByteTimeoutMs !== undefined) {
    changes.first_byte_timeout_ms = nullable(input.firstByteTimeoutMs, integerSettings.firstByteTimeoutMs);
  }
  if (input.idleTimeoutMs !== undefined) {
    changes.idle_timeout_ms = nullable(input.idleTimeoutMs, integerSettings.idleTimeoutMs);
  }
  if (input.reservedForUserIds !== undefined) {
    const ids = [...new Set((input.reservedForUserIds ?? []).map((id) => id.trim()).filter((id) => id !== ''))];
    changes.reserved_for_user_ids = ids.length === 0 ? null : ids.join('\n');
  }
  if (input.options !== undefined) changes.vendor_options = mergeRouteOptions(storedOptions, input.options);
  return changes;
}

/** The stored options with the given ones set (trimmed) or removed (null or blank), as the JSON the column holds. */
function mergeRouteOptions(
  storedOptions: string | null,
  changes: Readonly<Partial<Record<RouteOptionName, string | null>>>,
): string | null {
  const merged: Partial<Record<RouteOptionName, string>> = { ...readRouteOptions(storedOptions) };
  for (const [name, value] of Object.entries(changes) as [RouteOptionName, string | null | undefined][]) {
    if (value === undefined) continue;
    const trimmed = value?.trim() ?? '';
    if (trimmed === '') delete merged[name];
    else merged[name] = trimmed;
  }
  return Object.keys(merged).length === 0 ? null : JSON.stringify(merged);
}

const storedOptionsSchema = z.record(z.string(), z.string());

/** A route's stored vendor options: our own column, written by `convertRouteSettings`, still checked on the way in. */
export function readRouteOptions(stored: string | null): RouteOptions {
  if (stored === null) return {};
  // eslint-disable-next-line no-restricted-properties -- our own column; the schema checks what it holds
  const parsed = storedOptionsSchema.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : {};
}

/** The rules across fields, on the route as it will be stored: the vendor's own options, reserved accounts. */
export async function checkRouteRow(deps: { db: Database }, row: NewRouteRow): Promise<void> {
  checkRouteOptions(row.provider, readRouteOptions(row.vendor_options ?? null));
  for (const userId of (row.reserved_for_user_ids ?? '').split('\n').filter((id) => id !== '')) {
    if (!(await findUserById(deps.db, userId))) {
      throw new InvalidRequestError(`No account has the id "${userId}".`, { param: 'reserved_for' });
    }
  }
}

/**
 * A route's vendor-specific options against its vendor's schema (`routeOptions` in the vendor's definition): an
 * option another vendor owns is refused with that vendor's message, then the vendor's schema checks its own.
 */
export function checkRouteOptions(provider: string, options: RouteOptions): void {
  if (!isProviderId(provider)) return;
  const own = vendors[provider].routeOptions;
  const ownNames = Object.keys(own?.schema.shape ?? {});
  for (const name of Object.keys(options) as RouteOptionName[]) {
    if (ownNames.includes(name)) continue;
    const owner = providerIds.map((id) => vendors[id].routeOptions).find((rule) => rule && name in rule.schema.shape);
    throw new InvalidRequestError(owner?.foreignUseMessage ?? `\`${name}\` is not a route option.`, { param: name });
  }
  if (!own) return;
  const parsed = own.schema.safeParse(options);
  const issue = parsed.error?.issues[0];
  if (issue) throw new InvalidRequestError(issue.message, { param: String(issue.path[0] ?? 'options') });
}

function checkInteger(value: number, bounds: Bounds): number {
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new InvalidRequestError(
      `${bounds.what} must be a whole number from ${bounds.min} to ${bounds.max}, got ${String(value)}.`,
      { param: bounds.param },
    );
  }
  return value;
}
