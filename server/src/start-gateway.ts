import { createMemoryConcurrencyLimiter, createRedisConcurrencyLimiter } from './limits/concurrency-limiter.ts';
import { createMemorySpendBudgets } from './limits/spend-budgets.ts';
import { createRedisSpendBudgets } from './limits/redis-spend-budgets.ts';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import packageJson from '../../package.json' with { type: 'json' };
import { loadApiKeyCache } from './accounts/api-key-cache.ts';
import { argon2PasswordHasher } from './accounts/password-hash.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp, type AppDeps } from './app.ts';
import { createMemoryCreditHolds, type CreditHolds } from './billing/credit-holds.ts';
import { createRedisCreditHolds, defaultLeaseMs, type RedisCreditHolds } from './billing/redis-credit-holds.ts';
import { creditKeyPrefix } from './billing/reap-credit-node.ts';
import { findInstanceSetting } from './db/instance-settings.ts';
import { startCreditLease } from './billing/start-credit-lease.ts';
import { createDeliveryCheckpoints } from './billing/delivery-checkpoints.ts';
import { createLocalDeliveryFile, recoverLocalDeliveries } from './billing/local-delivery-file.ts';
import { createSettlementWriter, recoverSettlementJournal } from './billing/settlement-writer.ts';
import { createChargeWriter } from './db/charge-writer.ts';
import { claimJournalDirectory } from './db/settlement-journal.ts';
import { loadPriceList } from './catalog/price-list.ts';
import { loadAccountTerms } from './accounts/account-terms.ts';
import { loadRouteTable, type Route } from './catalog/route-table.ts';
import type { Config } from './config/config.ts';
import { loadNodeId } from './config/node-id.ts';
import { seedCatalog } from './config/seed-catalog.ts';
import { loadVerifiedMasterKey } from './config/verify-master-key.ts';
import { openDatabase, pingDatabase, type DatabaseHandle } from './db/database.ts';
import { prepareDatabase } from './prepare-database.ts';
import { watchCacheVersions } from './db/watch-cache-versions.ts';
import { createHttpMetrics, readRegistry, startMetricsServer, type HttpMetrics } from './http/metrics.ts';
import { joinProcesses, type ProcessPeers } from './join-processes.ts';
import { loadImagePriceTiers } from './images/image-price-tiers.ts';
import { seedImagePriceTiers } from './images/seed-image-price-tiers.ts';
import { systemClock } from './lib/clock.ts';
import { cryptoIds } from './lib/ids.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { createMemoryRateLimiter } from './limits/rate-limiter.ts';
import { createSpendCapHolds } from './limits/spend-cap-holds.ts';
import type { UpstreamFailure } from './providers/provider-adapter.ts';
import { createUpstreamAgent } from './upstream/create-upstream-agent.ts';
import { createRedisRateLimiter } from './limits/redis-rate-limiter.ts';
import { createRouting } from './routing/create-routing.ts';
import { createRouteDispatchers } from './routing/route-dispatchers.ts';
import { startSandboxPayments } from './start-sandbox-payments.ts';
import { watchSearchEngine } from './search/watch-search-engine.ts';
import { startPayments, type RunningPayments } from './start-payments.ts';
import { startWebSearch } from './search/start-web-search.ts';
import type { RunningSimulator } from '../../simulators/start-simulator.ts';
import { renewSubscriptions } from './subscriptions/renew-subscriptions.ts';
import { renewalIntervalMs, scheduleRenewals } from './subscriptions/schedule-renewals.ts';
import { startAccountMail, type AccountMail } from './start-account-mail.ts';
import { startAccountJobs } from './start-account-jobs.ts';
import { startNodeCreditFence } from './billing/start-credit-fence.ts';
import { createOpenCalls } from './http/open-calls.ts';
import { createModelSyncDeps } from './http/api/operator-model-sync.ts';
import { runScheduledModelSync, scheduleModelSync } from './operator/model-sync-schedule.ts';

export type RunningGateway = {
  url: string;
  database: DatabaseHandle;
  simulator: RunningSimulator | undefined;
  /** `/metrics` on its separate address (`METRICS_LISTEN`), if configured. */
  metricsUrl: string | undefined;
  /** What the app was built with: the pipeline's dependencies, for tests that drive a stage directly. */
  deps: AppDeps;
  /** The TronGrid simulator in payment sandbox mode (tests send USDT transfers there). */
  sandboxTronGridUrl: string | undefined;
  /** The NOWPayments simulator in payment sandbox mode with USDT_WAY=processor (tests pay USDT there). */
  sandboxNowPaymentsUrl: string | undefined;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes everything. */
  close: () => Promise<void>;
};

const packageVersion = packageJson.version;

/**
 * Builds every dependency from the config and starts listening; the single composition root. Start-up runs in stages
 * (storage, simulators, caches, upstreams, background jobs, the app), and each stage hands what it opens to one
 * disposable stack: a failure at any point closes what was opened before it, in reverse order, and `close` disposes
 * of the same stack (so the app stops taking requests first and the database closes last).
 */
export async function startGateway(config: Config, logger: Logger): Promise<RunningGateway> {
  const stack = new AsyncDisposableStack();
  try {
    const storage = await openStorage(stack, config, logger);
    const accountMail = startAccountMail(stack, { config, logger, storage });
    const simulator = await startSimulators(stack, config);
    const caches = await loadCaches({ config, logger, storage, simulatorUrl: simulator?.url });
    const metrics = createHttpMetrics();
    const upstreams = await connectUpstreams(stack, { config, logger, metrics, simulatorUrl: simulator?.url });
    const alerting = startAccountJobs(stack, {
      logger,
      db: storage.database.db,
      mailer: accountMail.mailer,
      publicBaseUrl: config.publicBaseUrl,
      routing: upstreams.routing,
      routeTable: caches.routeTable,
      searchEngine: upstreams.searchEngine,
      usageRetentionDays: config.accounts.usageRetentionDays,
    });
    startBackgroundJobs(stack, { logger, storage, caches });
    const payments = stack.adopt(
      await startPayments({ config, db: storage.database.db, creditHolds: storage.creditHolds, logger }),
      (running) => running.stop(),
    );
    let isShuttingDown = false;
    const { leaseRenewedAtMs, openRequestIds } = storage.creditHolds;
    // Only a node whose holds carry a lease (shared holds in Redis) can be fenced, so only it tracks its open calls.
    const openCalls = leaseRenewedAtMs && openRequestIds ? createOpenCalls() : undefined;
    const deps = {
      ...composeAppDeps(
        { config, logger, storage, caches, upstreams: { ...upstreams, ...alerting }, metrics, payments, accountMail },
        () => isShuttingDown,
      ),
      ...(openCalls ? { openCalls } : {}),
    };
    startModelSyncSchedule(stack, { logger, deps });
    const app = await startApp(stack, { config, deps, onClosing: () => (isShuttingDown = true) });
    if (openCalls && leaseRenewedAtMs && openRequestIds) {
      const cutOpenCalls = () => openCalls.cut(openRequestIds());
      const fence = { leaseRenewedAtMs, leaseMs: defaultLeaseMs, cutOpenCalls };
      stack.adopt(startNodeCreditFence({ ...fence, registry: metrics.registry, logger }), (f) => f.stop());
    }
    const metricsUrl = await startMetricsAddress(stack, { config, logger, metrics });
    let sandboxNowPaymentsUrl: string | undefined;
    if (payments.isPaymentSandbox) {
      // The payment simulators notify this gateway, so they start once it listens.
      const sandbox = await startSandboxPayments({ ...payments, gatewayUrl: app.url });
      stack.adopt(sandbox, (running) => running.close());
      sandboxNowPaymentsUrl = sandbox.nowPaymentsSimulator?.url;
    }
    const owned = stack.move();
    let closing: Promise<void> | undefined;
    return {
      url: app.url,
      metricsUrl,
      database: storage.database,
      simulator,
      deps,
      sandboxTronGridUrl: payments.sandboxTronGridUrl,
      sandboxNowPaymentsUrl,
      // Closing twice (a signal and a test's clean-up) closes once.
      close: () => (closing ??= owned.disposeAsync()),
    };
  } catch (error) {
    await stack.disposeAsync().catch((cleanupError: unknown) => {
      logger.error({ err: cleanupError }, 'closing what had started failed');
    });
    throw error;
  }
}

export type Storage = Awaited<ReturnType<typeof openStorage>>;

/**
 * The database (migrated, seeded), the master key, Redis when configured, the settlement journal, credit holds and
 * rate limits: everything that keeps money and state.
 */
async function openStorage(stack: AsyncDisposableStack, config: Config, logger: Logger) {
  const database = stack.adopt(
    openDatabase(config.database, {
      writerThread: {
        checkpointIntervalMs: 1000,
        onError: (message) => logger.error({ error: message }, 'SQLite checkpoint failed'),
      },
    }),
    (handle) => handle.close(),
  );
  await prepareDatabase({ db: database.db, clock: systemClock }, config);
  await seedImagePriceTiers(database.db, seedCatalog);
  const masterKey = await loadVerifiedMasterKey(
    { db: database.db, nowMs: () => systemClock.nowMs() },
    { masterKeyHex: config.masterKeyHex, dataDir: config.dataDir },
  );
  if (masterKey.source === 'generated') {
    logger.warn(
      { file: masterKey.filePath },
      'MASTER_KEY is not set: generated one; back it up, it seals vendor credentials',
    );
  }
  // The Redis and PostgreSQL clients are loaded only when used, to keep a plain node small.
  const redis =
    config.redisUrl === undefined
      ? undefined
      : stack.adopt(
          await (
            await import('./connect-redis.ts')
          ).connectRedis({ url: config.redisUrl, logger, nowMs: () => systemClock.nowMs() }),
          async (client) => void (await client.quit()),
        );
  stack.adopt(claimJournalDirectory(path.join(config.dataDir, journalFolder)), (lock) => lock.release());
  const creditHolds = await startCreditHolds({
    db: database.settlementDb,
    redis,
    dataDir: config.dataDir,
    logger,
    stack,
  });
  const settlements = stack.adopt(
    createSettlementWriter({
      db: database.settlementDb,
      chargeWriter: createChargeWriter({ db: database.settlementDb, writerThread: database.writerThread }),
      creditHolds,
      journalDirectory: path.join(config.dataDir, journalFolder),
      onError: (error) => logger.error({ err: error }, 'writing settled charges to the database failed; retrying'),
    }),
    (writer) => writer.close(),
  );
  database.setReadBarrier(settlements.flush);
  const rateLimiter = redis
    ? createRedisRateLimiter({ redis, keyPrefix: 'gw:' })
    : createMemoryRateLimiter({ nowMs: () => systemClock.nowMs() });
  const concurrencyLimiter = redis
    ? createRedisConcurrencyLimiter({ redis, keyPrefix: 'gw:' })
    : createMemoryConcurrencyLimiter();
  const spendBudgets = redis ? createRedisSpendBudgets({ redis, keyPrefix: 'gw:' }) : createMemorySpendBudgets();
  const secretBox = createSecretBox(masterKey.key);
  return {
    database,
    redis,
    masterKey: masterKey.key,
    secretBox,
    creditHolds,
    settlements,
    rateLimiter,
    concurrencyLimiter,
    spendBudgets,
  };
}

/** Sandbox mode's vendor simulators (loaded only then); the route table points the implicit routes at them. */
async function startSimulators(stack: AsyncDisposableStack, config: Config): Promise<RunningSimulator | undefined> {
  if (!config.isSandbox) return undefined;
  const { startSimulator } = await import('../../simulators/start-simulator.ts');
  return stack.adopt(await startSimulator({ host: '127.0.0.1', chunkDelayMs: 15 }), (simulator) => simulator.close());
}

type Caches = Awaited<ReturnType<typeof loadCaches>>;

/** What the request path reads from memory: prices, image tiers, routes, API keys, account terms. */
async function loadCaches(input: {
  config: Config;
  logger: Logger;
  storage: Storage;
  simulatorUrl: string | undefined;
}) {
  const { db } = input.storage.database;
  const priceList = await loadPriceList(db);
  const imagePriceTiers = await loadImagePriceTiers(db);
  const routeTable = await loadRouteTable({
    db,
    config: input.config,
    secretBox: input.storage.secretBox,
    priceList,
    seedCatalog,
    simulatorUrl: input.simulatorUrl,
    onUnreadableCredential: (routeId) =>
      input.logger.error({ route: routeId }, 'route skipped: its credential cannot be opened with this master key'),
  });
  const apiKeyCache = await loadApiKeyCache(db);
  const accountTerms = await loadAccountTerms({
    db,
    clock: systemClock,
    standardLimits: input.config.standardLimits,
  });
  return { priceList, imagePriceTiers, routeTable, apiKeyCache, accountTerms };
}

type Upstreams = Awaited<ReturnType<typeof connectUpstreams>>;

/** The HTTP clients of the model upstreams (behind the SSRF guard) and of the search engine, and route health. */
async function connectUpstreams(
  stack: AsyncDisposableStack,
  input: { config: Config; logger: Logger; metrics: HttpMetrics; simulatorUrl: string | undefined },
) {
  const { config, logger } = input;
  // The SSRF guard: model upstreams on private addresses only when allowed; the simulator is the one exemption.
  const upstreamAddresses = {
    allowPrivate: config.allowPrivateUpstreams,
    trustedOrigins: input.simulatorUrl === undefined ? [] : [input.simulatorUrl],
  };
  const close = (closable: { close: () => Promise<unknown> }) => closable.close().then(() => undefined);
  const routeDispatchers = stack.adopt(createRouteDispatchers(upstreamAddresses), close);
  // The search engine is the operator's own configuration (often a local SearXNG), not a route: no guard.
  const searchAgent = stack.adopt(
    createUpstreamAgent({ connectTimeoutMs: 10_000, addresses: { allowPrivate: true, trustedOrigins: [] } }),
    close,
  );
  const upstreamAgent = stack.adopt(
    createUpstreamAgent({ connectTimeoutMs: 10_000, addresses: upstreamAddresses }),
    close,
  );
  const webSearch = stack.adopt(
    await startWebSearch({
      ...config.search,
      isSandbox: config.isSandbox,
      dispatcher: searchAgent,
      startSimulator: async () =>
        (await import('../../simulators/search/start-search-simulator.ts')).startSearchSimulator({ host: '127.0.0.1' }),
    }),
    close,
  );
  // Math.random only orders equally good routes when a request has no conversation to keep on one route.
  const routing = createRouting({
    clock: systemClock,
    random: Math.random,
    settings: config.routing,
    registry: input.metrics.registry,
  });
  const upstream = {
    dispatcher: upstreamAgent,
    dispatcherFor: routeDispatchers.dispatcherFor,
    routing,
    onAttemptFailed: (route: Route, failure: UpstreamFailure) =>
      logger.warn(
        { route: route.id, status: failure.status, kind: failure.kind, vendorCode: failure.vendorCode },
        'upstream attempt failed',
      ),
  };
  const watchedSearch = watchSearchEngine(webSearch.engine, {
    logger,
    registry: input.metrics.registry,
    clock: systemClock,
    setup: {
      isConfigured: webSearch.engine.id !== 'none',
      address: webSearch.address,
      isSimulator: webSearch.simulator !== undefined,
    },
  });
  return { routing, upstream, searchEngine: watchedSearch.engine, webSearchHealth: watchedSearch.health };
}

/** Cache reloads when another node or the CLI changes something, and the subscription renewal pass. */
function startBackgroundJobs(
  stack: AsyncDisposableStack,
  input: { logger: Logger; storage: Storage; caches: Caches },
): void {
  const { logger, caches } = input;
  const { database, creditHolds } = input.storage;
  stack.adopt(
    watchCacheVersions({
      db: database.db,
      intervalMs: 500,
      onChange: async (name) => {
        if (name === 'api_keys') await caches.apiKeyCache.reload();
        if (name === 'balances') await creditHolds.refresh();
        if (name === 'catalog') await caches.priceList.reload();
        if (name === 'catalog') await caches.imagePriceTiers.reload();
        if (name === 'catalog' || name === 'routes') await caches.routeTable.reload();
        if (name === 'account_terms') await caches.accountTerms.reload();
      },
      onError: (error) => logger.error({ err: error }, 'cache refresh failed'),
    }),
    (watcher) => watcher.stop(),
  );
  const renew = () =>
    renewSubscriptions({
      db: database.db,
      clock: systemClock,
      ids: cryptoIds,
      creditHolds,
      accountTerms: caches.accountTerms,
    });
  stack.adopt(
    scheduleRenewals({
      intervalMs: renewalIntervalMs,
      renew,
      onError: (error) => logger.error({ err: error }, 'subscription renewal pass failed'),
    }),
    (renewals) => renewals.stop(),
  );
}

/** The model sync schedule (docs/catalogue.md): checked every minute, run by one node when its interval has passed. */
function startModelSyncSchedule(stack: AsyncDisposableStack, input: { logger: Logger; deps: AppDeps }): void {
  const sync = createModelSyncDeps(input.deps);
  stack.adopt(
    scheduleModelSync({
      tickMs: 60_000,
      run: async () => {
        const outcome = await runScheduledModelSync(sync);
        if (outcome) input.logger.info({ ...outcome }, 'scheduled model sync ran');
      },
      onError: (error) => input.logger.error({ err: error }, 'scheduled model sync failed'),
    }),
    (schedule) => schedule.stop(),
  );
}

/** Every dependency the app's routes take, from the stages' products; `app.ts` hands each route its own part. */
function composeAppDeps(
  input: {
    config: Config;
    logger: Logger;
    storage: Storage;
    caches: Caches;
    upstreams: Upstreams;
    metrics: HttpMetrics;
    payments: RunningPayments;
    accountMail: AccountMail;
  },
  isShuttingDown: () => boolean,
): AppDeps {
  const { config, storage, caches, upstreams } = input;
  const peers = joinLauncher(config, input.metrics);
  return {
    ...input.payments,
    ...input.accountMail,
    ...caches,
    ...upstreams,
    db: storage.database.db,
    pingDatabase: () => pingDatabase(storage.database.db),
    redis: storage.redis,
    creditHolds: storage.creditHolds,
    settlements: storage.settlements,
    rateLimiter: storage.rateLimiter,
    concurrencyLimiter: storage.concurrencyLimiter,
    secretBox: storage.secretBox,
    isShuttingDown,
    passwords: argon2PasswordHasher,
    spendCapHolds: createSpendCapHolds(),
    spendBudgets: storage.spendBudgets,
    clock: systemClock,
    wait: (ms: number) => sleep(ms),
    ids: cryptoIds,
    isSandbox: config.isSandbox,
    publicBaseUrl: config.publicBaseUrl,
    directBaseUrl: config.directBaseUrl,
    hasConfiguredBaseUrl: config.hasConfiguredBaseUrl,
    logger: input.logger,
    metrics: input.metrics,
    operatorTotp: {
      db: storage.database.db,
      clock: systemClock,
      ids: cryptoIds,
      secretBox: storage.secretBox,
      rateLimiter: storage.rateLimiter,
      requireOperatorTotp: config.requireOperatorTotp,
    },
    metricsAccess: {
      token: config.metrics.token,
      isOnPublicPort: config.metrics.listen === undefined,
      readGatewayMetrics: peers?.readGatewayMetrics,
    },
    processes: peers,
    allowPrivateUpstreams: config.allowPrivateUpstreams,
    pricingRule: config.pricingRule,
    priceDataUrl: config.priceDataUrl,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    version: packageVersion,
    webDistDir: config.webDistDir,
    keepAliveIntervalMs: config.keepAliveIntervalMs,
    corsOrigins: config.corsOrigins,
    imageTimeoutMs: config.imageTimeoutMs,
    nativeSearchProviders: config.search.nativeProviders,
  };
}

/**
 * Builds the app and listens. Disposing of it comes first at shutdown: the node reports that it is shutting down
 * (health answers 503), stops taking connections and lets in-flight requests finish, up to the grace period.
 */
async function startApp(
  stack: AsyncDisposableStack,
  input: { config: Config; deps: AppDeps; onClosing: () => void },
): Promise<{ url: string }> {
  const { config } = input;
  const app = await buildApp(input.deps);
  stack.defer(async () => {
    input.onClosing();
    const deadline = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs);
    await app.close();
    clearTimeout(deadline);
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address() as AddressInfo;
  return { url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}` };
}

/** `/metrics` on its own address when `METRICS_LISTEN` is set; says at start where (or whether) metrics are served. */
async function startMetricsAddress(
  stack: AsyncDisposableStack,
  input: { config: Config; logger: Logger; metrics: HttpMetrics },
): Promise<string | undefined> {
  const { listen, token } = input.config.metrics;
  // Under PROCESSES > 1 the launcher binds METRICS_LISTEN and serves every process's metrics there.
  if (input.config.workerIndex !== undefined) return undefined;
  if (listen === undefined) {
    if (token === undefined) input.logger.info('/metrics is off: set METRICS_TOKEN or METRICS_LISTEN to serve it');
    return undefined;
  }
  const server = stack.adopt(
    await startMetricsServer({ source: readRegistry(input.metrics.registry), ...listen, token }),
    (running) => running.close(),
  );
  input.logger.info({ url: `${server.url}/metrics` }, 'metrics listening on their own address');
  return server.url;
}

/** A process forked by `PROCESSES=N` answers its launcher's metrics requests and learns which siblings serve. */
function joinLauncher(config: Config, metrics: HttpMetrics): ProcessPeers | undefined {
  if (config.workerIndex === undefined) return undefined;
  return joinProcesses({
    registry: metrics.registry,
    slot: config.workerIndex,
    processes: config.processes,
    timeoutMs: 5000,
  });
}

const journalFolder = 'settlements';

/** One node without Redis: bills what its previous life's streams delivered, then checkpoints its own to a file. */
async function startLocalCreditHolds(input: { db: DatabaseHandle['db']; dataDir: string; logger: Logger }) {
  const filePath = path.join(input.dataDir, journalFolder, 'deliveries.ndjson');
  const recovered = await recoverLocalDeliveries({ db: input.db, filePath });
  if (recovered.chargeCount > 0) {
    input.logger.warn({ charges: recovered.chargeCount }, 'billed the streams a stopped process had delivered');
  }
  const deliveries = createDeliveryCheckpoints({
    write: createLocalDeliveryFile(filePath).write,
    onError: (error) => input.logger.error({ err: error }, 'writing stream delivery checkpoints failed'),
  });
  return createMemoryCreditHolds({ db: input.db, deliveries });
}

/**
 * Credit holds in memory (one node) or in Redis (several nodes), after the charges an earlier process journaled
 * but did not write are in the database: a restarted node then takes back the holds and pending charges it left.
 */
async function startCreditHolds(input: {
  db: DatabaseHandle['db'];
  redis: Redis | undefined;
  dataDir: string;
  logger: Logger;
  stack: AsyncDisposableStack;
}): Promise<CreditHolds & Partial<Pick<RedisCreditHolds, 'leaseRenewedAtMs' | 'openRequestIds'>>> {
  const recovered = await recoverSettlementJournal({
    db: input.db,
    journalDirectory: path.join(input.dataDir, journalFolder),
  });
  if (recovered.chargeCount > 0) {
    input.logger.warn({ charges: recovered.chargeCount }, 'wrote the charges a stopped process had journaled');
  }
  if (!input.redis) return startLocalCreditHolds(input);
  const nodeId = loadNodeId(input.dataDir);
  const installation = await findInstanceSetting(input.db, 'master_key_fingerprint');
  const keyPrefix = creditKeyPrefix(installation);
  const onError = (error: unknown) =>
    input.logger.error({ err: error }, 'writing credit holds to Redis failed; the next heartbeat re-posts them');
  // Lease renewals get a connection of their own (decision 1902); its failures show as failed renewals in the log.
  const leaseRedis = input.stack.adopt(input.redis.duplicate(), async (client) => void (await client.quit()));
  leaseRedis.on('error', () => undefined);
  const shared = createRedisCreditHolds({ db: input.db, redis: input.redis, leaseRedis, keyPrefix, nodeId, onError });
  const released = await shared.forgetPreviousLife(recovered.userIds);
  if (released > 0) input.logger.warn({ holds: released }, 'released the credit holds a stopped process left');
  input.stack.adopt(startCreditLease(shared, input.logger), (lease) => lease.stop());
  return shared;
}
