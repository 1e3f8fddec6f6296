import path from 'node:path';
import { z } from 'zod';
import { parseUsdToMicros } from '../lib/money.ts';
import type { DatabaseConfig } from '../db/database.ts';
import { providerIds, type ProviderId } from '../providers/provider-id.ts';
import { vendors } from '../providers/vendors.ts';
import type { RoutingSettings } from './routing-settings.ts';
import type { StandardLimits } from '../limits/account-limits.ts';
import { paymentEnvironmentShape, readPaymentConfig, type PaymentConfig } from './payment-config.ts';
import { accountEnvironmentShape, readAccountConfig, type AccountConfig } from './account-config.ts';

/** Vendor credentials the gateway reads from the environment (each vendor's definition names its own). */
export type VendorCredentialKey = NonNullable<(typeof vendors)[ProviderId]['credentialKey']>;
/** Each one configures a live route family. */
export const vendorCredentialKeys: readonly VendorCredentialKey[] = providerIds.flatMap((id) => {
  const key = vendors[id].credentialKey;
  return key === undefined ? [] : [key];
});

const booleanText = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const optionalUrl = z.url({ protocol: /^https?$/ }).optional();

/** A decimal USD amount read exactly (no float on the way) into integer micro-USD, within a range. */
function usdAsMicros(range: { maxUsd: number }) {
  return z.string().transform((text, context) => {
    const micros = parseUsdToMicros(text);
    if (micros === undefined || micros < 0 || micros > range.maxUsd * 1_000_000) {
      context.addIssue(`must be a USD amount from 0 to ${range.maxUsd} with at most 6 decimals`);
      return z.NEVER;
    }
    return micros;
  });
}

/** A percentage with at most two decimals, read exactly into basis points (1% = 100), within a range. */
function percentAsBasisPoints(range: { maxPercent: number }) {
  return z.string().transform((text, context) => {
    const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
    const basisPoints = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined;
    if (basisPoints === undefined || basisPoints > range.maxPercent * 100) {
      context.addIssue(`must be a percentage from 0 to ${range.maxPercent} with at most 2 decimals`);
      return z.NEVER;
    }
    return basisPoints;
  });
}

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres|postgresql):\/\/.+/, 'must be a postgres:// URL (leave unset for the embedded SQLite)')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL')
    .optional(),
  PUBLIC_BASE_URL: optionalUrl,
  DIRECT_BASE_URL: optionalUrl,
  MASTER_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  SANDBOX: z.enum(['on', 'off', 'auto']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WELCOME_BALANCE_USD: usdAsMicros({ maxUsd: 1_000_000 }).default(1_000_000),
  DEFAULT_DISCOUNT_PERCENT: percentAsBasisPoints({ maxPercent: 90 }).default(2000),
  PRICING_RULE: z.enum(['cost_plus_markup', 'list_minus_discount']).default('cost_plus_markup'),
  DEFAULT_MARKUP_PERCENT: percentAsBasisPoints({ maxPercent: 1000 }).default(2000),
  SEED_GENERATION: z.enum(['current', 'fixed']).default('current'),
  PRICE_DATA_URL: z
    .union([z.literal('off'), z.url({ protocol: /^https?$/ })])
    .default('https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/new_data/v2/data.json'),
  DEFAULT_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  DEFAULT_TOKENS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  ACCOUNT_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
  ACCOUNT_TOKENS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000_000).default(10_000_000),
  ACCOUNT_CONCURRENT_REQUESTS: z.coerce.number().int().min(1).max(100_000).default(50),
  MAX_KEYS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(50),
  KEEPALIVE_INTERVAL_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  CORS_ORIGINS: z
    .string()
    .transform((text, context) => {
      if (text.trim() === '*') return '*' as const;
      const origins = text
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== '');
      const invalid = origins.find((origin) => !/^https?:\/\/[^/\s]+$/i.test(origin));
      if (invalid !== undefined || origins.length === 0) {
        context.addIssue(
          `must be * or a comma-separated list of origins like https://app.example.com (got ${invalid ?? 'nothing'})`,
        );
        return z.NEVER;
      }
      return origins.map((origin) => origin.toLowerCase());
    })
    .default('*'),
  MEMORY_MODE: z.enum(['throughput', 'lean']).default('throughput'),
  PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  // Set by the PROCESSES launcher for the gateways it forks (server/src/start-processes.ts), not by operators.
  GATEWAY_WORKER_INDEX: z.coerce.number().int().min(0).max(63).optional(),
  // Node's own; read only to tell whether V8 was started with a young-generation cap (main.ts).
  NODE_OPTIONS: z.string().default(''),
  IMAGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(900_000).default(300_000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(20 * 1024 * 1024),
  ALLOW_PRIVATE_UPSTREAMS: booleanText.default(false),
  ROUTE_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  ROUTE_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  ROUTE_RETRY_BUDGET_PERCENT: z.coerce.number().min(0).max(100).default(20),
  ROUTE_RETRY_BUDGET_FLOOR: z.coerce.number().int().min(0).max(1_000_000).default(10),
  ROUTE_DEADLINE_MS: z.coerce.number().int().min(100).max(3_600_000).default(600_000),
  ROUTE_MAX_COOLING_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
  ROUTE_PREFER_CHEAPEST: z.enum(['true', 'false']).default('false'),
  SEARCH_ENGINE: z.enum(['searxng', 'brave', 'tavily', 'exa']).optional(),
  SEARCH_BASE_URL: optionalUrl,
  SEARCH_API_KEY: z.string().min(1).optional(),
  SEARCH_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  NATIVE_WEB_SEARCH: z
    .string()
    .regex(
      /^\s*((openai|anthropic|gemini)\s*(,\s*|$))*$/,
      'must list openai, anthropic and/or gemini, separated by commas',
    )
    .default(''),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[0-9a-fA-F.:/, ]+)$/,
      'must be true, false, a hop count, or addresses/CIDRs separated by commas',
    )
    .default('false'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  REQUIRE_OPERATOR_TOTP: booleanText.default(true),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_LISTEN: z
    .string()
    .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/, 'must be host:port, such as 127.0.0.1:9464')
    .optional(),
  ...Object.fromEntries(vendorCredentialKeys.map((key) => [key, z.string().min(1).optional()])),
  ...paymentEnvironmentShape,
  ...accountEnvironmentShape,
});

/** The validated, frozen configuration; the only place `process.env` is read is `readConfig`. */
export type Config = {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  readonly redisUrl: string | undefined;
  readonly publicBaseUrl: string;
  readonly directBaseUrl: string;
  /** False when neither base URL is set: pages then show the address the browser used. */
  readonly hasConfiguredBaseUrl: boolean;
  /** Explicit master key (hex) or undefined: then it is read from or generated into `DATA_DIR`. */
  readonly masterKeyHex: string | undefined;
  readonly sandboxSetting: 'on' | 'off' | 'auto';
  /** Sandbox mode as decided: `on`, or `auto` with no vendor credential configured. */
  readonly isSandbox: boolean;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly welcomeBalanceMicros: number;
  readonly defaultDiscountBasisPoints: number;
  /**
   * How a model gets our price when none is given (seeding, `model add`): the route's cost plus
   * `markupBasisPoints` (the default, so a stock install does not sell at a loss), or the vendor list price less
   * `DEFAULT_DISCOUNT_PERCENT` (docs/catalogue.md).
   */
  readonly pricingRule: PricingRule;
  /**
   * What a fresh install's catalogue starts with: `current`, the seed plus the current generation of each line from
   * the bundled genai-prices data (docs/catalogue.md), or `fixed`, the seed alone (tests pin their catalogue).
   */
  readonly seedGeneration: 'current' | 'fixed';
  /** The published genai-prices data file a model sync reads (docs/catalogue.md); undefined: the bundled data only. */
  readonly priceDataUrl: string | undefined;
  /** The standard limits: each key's ceiling, each account's shared budgets and its key count (docs/limits.md). */
  readonly standardLimits: StandardLimits;
  /** Silence after which a stream gets a `: keep-alive` comment. */
  readonly keepAliveIntervalMs: number;
  /** Browser origins allowed to call `/v1` (CORS): `*` for any, else exact origins, lower-case. */
  readonly corsOrigins: '*' | readonly string[];
  /**
   * `throughput` (V8's defaults) or `lean`: V8 collects garbage sooner and keeps a small young generation, for about
   * half the resident memory under many streams at the cost of CPU per request (docs/benchmarks.md).
   */
  readonly memoryMode: 'throughput' | 'lean';
  /** Gateway processes sharing the port (server/src/start-processes.ts); above 1 needs PostgreSQL and Redis. */
  readonly processes: number;
  /** This process's slot (0..PROCESSES-1) when the launcher forked it. */
  readonly workerIndex: number | undefined;
  /** Node's NODE_OPTIONS as the process was started with them (V8's heap sizes are fixed at start). */
  readonly nodeOptions: string;
  /** How long one upstream route may take to deliver every image of a request (polls and downloads included). */
  readonly imageTimeoutMs: number;
  readonly shutdownGraceMs: number;
  readonly bodyLimitBytes: number;
  /** Which proxies to believe for the client address and protocol (Fastify's `trustProxy`). */
  readonly trustProxy: boolean | number | string;
  /**
   * Who may read `/metrics`: with `token`, only a bearer of it; with `listen`, only on that separate address (not on
   * the public port). With neither, nobody: the public port answers 404 (docs/operator.md, "Metrics").
   */
  /** Operators must pass a TOTP second factor to use the operator API (docs/operator.md, "Second factor"). */
  readonly requireOperatorTotp: boolean;
  readonly metrics: { token: string | undefined; listen: { host: string; port: number } | undefined };
  readonly allowPrivateUpstreams: boolean;
  /** Circuit breaker, retry budget, deadline and cooling limits of upstream routing (docs/routing.md). */
  readonly routing: RoutingSettings;
  readonly webDistDir: string;
  readonly vendorCredentials: Readonly<Partial<Record<VendorCredentialKey, string>>>;
  /**
   * The web search engine behind the Responses API's `web_search` tool. `engine` is undefined when SEARCH_ENGINE is
   * not set: sandbox mode then searches its simulator, otherwise SearXNG at its default address.
   */
  readonly search: {
    readonly engine: 'searxng' | 'brave' | 'tavily' | 'exa' | undefined;
    readonly baseUrl: string | undefined;
    readonly apiKey: string | undefined;
    readonly timeoutMs: number;
    /** Providers whose routes let the vendor search with its own tool instead (NATIVE_WEB_SEARCH, docs/responses.md). */
    readonly nativeProviders: readonly NativeSearchProviderId[];
  };
  /** Top-ups: provider credentials, payment sandbox, minimums, order lifetime and the FX rule (payment-config.ts). */
  readonly payments: PaymentConfig;
  /** Mail (SMTP or the outbox), links, the welcome balance's moment and sign-up abuse limits (account-config.ts). */
  readonly accounts: AccountConfig;
};

export type NativeSearchProviderId = 'openai' | 'anthropic' | 'gemini';

/** The default pricing rule: route cost plus a markup, or list price less a discount (basis points, 100 = 1%). */
export type PricingRule =
  | { readonly kind: 'cost_plus_markup'; readonly markupBasisPoints: number }
  | { readonly kind: 'list_minus_discount'; readonly discountBasisPoints: number };

function readPricingRule(values: {
  PRICING_RULE: 'cost_plus_markup' | 'list_minus_discount';
  DEFAULT_MARKUP_PERCENT: number;
  DEFAULT_DISCOUNT_PERCENT: number;
}): PricingRule {
  return values.PRICING_RULE === 'cost_plus_markup'
    ? { kind: 'cost_plus_markup', markupBasisPoints: values.DEFAULT_MARKUP_PERCENT }
    : { kind: 'list_minus_discount', discountBasisPoints: values.DEFAULT_DISCOUNT_PERCENT };
}

/** Every invalid or missing key, reported together. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Validates an environment (normally `process.env`) into a frozen Config, or throws ConfigError naming every bad key. */
export function parseConfig(environment: Readonly<Record<string, string | undefined>>): Config {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = environmentSchema.safeParse(present);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const values = result.data;
  const accounts = readAccountConfig(values);
  if (accounts.problems.length > 0) throw new ConfigError(accounts.problems);
  const vendorCredentials: Partial<Record<VendorCredentialKey, string>> = {};
  for (const key of vendorCredentialKeys) {
    const value = (values as Record<string, unknown>)[key];
    if (typeof value === 'string') vendorCredentials[key] = value;
  }
  const hasVendorCredential = Object.keys(vendorCredentials).length > 0;
  const dataDir = path.resolve(values.DATA_DIR);
  const localBaseUrl = `http://${values.HOST.includes(':') ? `[${values.HOST}]` : values.HOST}:${values.PORT}`;
  return Object.freeze({
    port: values.PORT,
    host: values.HOST,
    dataDir,
    database: databaseConfig(values.DATABASE_URL, dataDir),
    redisUrl: values.REDIS_URL,
    publicBaseUrl: stripTrailingSlash(values.PUBLIC_BASE_URL ?? localBaseUrl),
    directBaseUrl: stripTrailingSlash(values.DIRECT_BASE_URL ?? values.PUBLIC_BASE_URL ?? localBaseUrl),
    hasConfiguredBaseUrl: values.PUBLIC_BASE_URL !== undefined || values.DIRECT_BASE_URL !== undefined,
    masterKeyHex: values.MASTER_KEY,
    sandboxSetting: values.SANDBOX,
    isSandbox: values.SANDBOX === 'on' || (values.SANDBOX === 'auto' && !hasVendorCredential),
    logLevel: values.LOG_LEVEL,
    welcomeBalanceMicros: values.WELCOME_BALANCE_USD,
    defaultDiscountBasisPoints: values.DEFAULT_DISCOUNT_PERCENT,
    pricingRule: readPricingRule(values),
    seedGeneration: values.SEED_GENERATION,
    priceDataUrl: values.PRICE_DATA_URL === 'off' ? undefined : values.PRICE_DATA_URL,
    standardLimits: {
      keyRequestsPerMinute: values.DEFAULT_REQUESTS_PER_MINUTE,
      keyTokensPerMinute: values.DEFAULT_TOKENS_PER_MINUTE,
      accountRequestsPerMinute: values.ACCOUNT_REQUESTS_PER_MINUTE,
      accountTokensPerMinute: values.ACCOUNT_TOKENS_PER_MINUTE,
      accountConcurrentRequests: values.ACCOUNT_CONCURRENT_REQUESTS,
      maxKeysPerAccount: values.MAX_KEYS_PER_ACCOUNT,
    },
    keepAliveIntervalMs: values.KEEPALIVE_INTERVAL_MS,
    corsOrigins: values.CORS_ORIGINS,
    memoryMode: values.MEMORY_MODE,
    processes: values.PROCESSES,
    workerIndex: values.GATEWAY_WORKER_INDEX,
    nodeOptions: values.NODE_OPTIONS,
    imageTimeoutMs: values.IMAGE_TIMEOUT_MS,
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    bodyLimitBytes: values.BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(values.TRUST_PROXY),
    requireOperatorTotp: values.REQUIRE_OPERATOR_TOTP,
    metrics: { token: values.METRICS_TOKEN, listen: parseHostPort(values.METRICS_LISTEN) },
    allowPrivateUpstreams: values.ALLOW_PRIVATE_UPSTREAMS,
    routing: Object.freeze({
      breaker: { failureThreshold: values.ROUTE_BREAKER_FAILURES, coolDownMs: values.ROUTE_BREAKER_COOLDOWN_MS },
      retryBudget: {
        ratio: values.ROUTE_RETRY_BUDGET_PERCENT / 100,
        floorPerWindow: values.ROUTE_RETRY_BUDGET_FLOOR,
        windowMs: 10_000,
      },
      deadlineMs: values.ROUTE_DEADLINE_MS,
      maxCoolingMs: values.ROUTE_MAX_COOLING_MS,
      ewmaSmoothing: 0.2,
      preferCheapest: values.ROUTE_PREFER_CHEAPEST === 'true',
    }),
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../../web/dist')),
    vendorCredentials: Object.freeze(vendorCredentials),
    search: Object.freeze({
      engine: values.SEARCH_ENGINE,
      baseUrl: values.SEARCH_BASE_URL,
      apiKey: values.SEARCH_API_KEY,
      timeoutMs: values.SEARCH_TIMEOUT_MS,
      nativeProviders: Object.freeze(readNativeSearchProviders(values.NATIVE_WEB_SEARCH)),
    }),
    payments: readPaymentConfig(values),
    accounts: accounts.config,
  });
}

function readNativeSearchProviders(text: string): NativeSearchProviderId[] {
  const names = text.split(',').map((name) => name.trim());
  return (['openai', 'anthropic', 'gemini'] as const).filter((provider) => names.includes(provider));
}

/** Reads `process.env` once. */
export function readConfig(): Config {
  return parseConfig(process.env);
}

function databaseConfig(url: string | undefined, dataDir: string): DatabaseConfig {
  return url ? { kind: 'postgres', url } : { kind: 'sqlite', filePath: path.join(dataDir, 'gateway.sqlite') };
}

function stripTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

function parseTrustProxy(text: string): boolean | number | string {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^\d+$/.test(text) ? Number(text) : text;
}

function parseHostPort(value: string | undefined): { host: string; port: number } | undefined {
  if (value === undefined) return undefined;
  const separator = value.lastIndexOf(':');
  return { host: value.slice(0, separator).replace(/^\[(.*)\]$/, '$1'), port: Number(value.slice(separator + 1)) };
}
