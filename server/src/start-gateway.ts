import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import packageJson from '../../package.json' with { type: 'json' };
import { loadApiKeyCache } from './accounts/api-key-cache.ts';
import { argon2PasswordHasher } from './accounts/password-hash.ts';
import { buildApp } from './app.ts';
import { createMemoryCreditHolds, type CreditHolds } from './billing/credit-holds.ts';
import { createRedisCreditHolds } from './billing/redis-credit-holds.ts';
import { createSettlementWriter, recoverSettlementJournal } from './billing/settlement-writer.ts';
import { createChargeWriter } from './db/charge-writer.ts';
import { claimJournalDirectory } from './db/settlement-journal.ts';
import { loadPriceList } from './catalog/price-list.ts';
import { loadAccountTerms } from './operator/account-terms.ts';
import { loadRouteTable } from './catalog/route-table.ts';
import type { Config } from './config/config.ts';
import { loadNodeId } from './config/node-id.ts';
import { seedCatalog } from './config/seed-catalog.ts';
import { loadVerifiedMasterKey } from './config/verify-master-key.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { prepareDatabase } from './prepare-database.ts';
import { watchCacheVersions } from './db/watch-cache-versions.ts';
import { createHttpMetrics } from './http/metrics.ts';
import { loadImagePriceTiers } from './images/image-price-tiers.ts';
import { seedImagePriceTiers } from './images/seed-image-price-tiers.ts';
import { systemClock } from './lib/clock.ts';
import { cryptoIds } from './lib/ids.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { createMemoryRateLimiter } from './limits/rate-limiter.ts';
import { createSpendCapHolds } from './limits/spend-cap-holds.ts';
import { createUpstreamAgent } from './providers/shared/post-json.ts';
import { createRedisRateLimiter } from './limits/redis-rate-limiter.ts';
import { createRouting } from './routing/create-routing.ts';
import { createRouteDispatchers } from './routing/route-dispatchers.ts';
import { startWebSearch } from './search/start-web-search.ts';
import { startPayments } from './start-payments.ts';
import type { RunningSimulator } from './simulators/start-simulator.ts';
import { renewSubscriptions } from './subscriptions/renew-subscriptions.ts';
import { renewalIntervalMs, scheduleRenewals } from './subscriptions/schedule-renewals.ts';

export type RunningGateway = {
  url: string;
  database: DatabaseHandle;
  simulator: RunningSimulator | undefined;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes everything. */
  close: () => Promise<void>;
};

const packageVersion = packageJson.version;

/** Builds every dependency from the config and starts listening. The single composition root. */
export async function startGateway(config: Config, logger: Logger): Promise<RunningGateway> {
  const database = openDatabase(config.database, {
    writerThread: {
      checkpointIntervalMs: 1000,
      onError: (message) => logger.error({ error: message }, 'SQLite checkpoint failed'),
    },
  });
  let isShuttingDown = false;
  try {
    await prepareDatabase({ db: database.db, clock: systemClock }, config);
    await seedImagePriceTiers(database.db, seedCatalog);
  } catch (error) {
    await database.close();
    throw error;
  }
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
  // The simulators and the Redis and PostgreSQL clients are loaded only when used, to keep a plain node small.
  const simulator = config.isSandbox
    ? await (await import('./simulators/start-simulator.ts')).startSimulator({ host: '127.0.0.1', chunkDelayMs: 15 })
    : undefined;
  const priceList = await loadPriceList(database.db);
  const imagePriceTiers = await loadImagePriceTiers(database.db);
  const secretBox = createSecretBox(masterKey.key);
  const routeTable = await loadRouteTable({
    db: database.db,
    config,
    secretBox,
    priceList,
    seedCatalog,
    simulatorUrl: simulator?.url,
    onUnreadableCredential: (routeId) =>
      logger.error({ route: routeId }, 'route skipped: its credential cannot be opened with this master key'),
  });
  const apiKeyCache = await loadApiKeyCache(database.db);
  const accountTerms = await loadAccountTerms({ db: database.db, clock: systemClock });
  const redis =
    config.redisUrl === undefined
      ? undefined
      : await (
          await import('./connect-redis.ts')
        ).connectRedis({ url: config.redisUrl, logger, nowMs: () => systemClock.nowMs() });
  const journalLock = claimJournalDirectory(path.join(config.dataDir, journalFolder));
  const creditHolds = await startCreditHolds({
    db: database.settlementDb,
    redis,
    dataDir: config.dataDir,
    logger,
  }).catch(async (error: unknown) => {
    journalLock.release();
    redis?.disconnect();
    await database.close();
    throw error;
  });
  const settlements = createSettlementWriter({
    db: database.settlementDb,
    chargeWriter: createChargeWriter({ db: database.settlementDb, writerThread: database.writerThread }),
    creditHolds,
    journalDirectory: path.join(config.dataDir, journalFolder),
    onError: (error) => logger.error({ err: error }, 'writing settled charges to the database failed; retrying'),
  });
  database.setReadBarrier(settlements.flush);
  const rateLimiter = redis
    ? createRedisRateLimiter({ redis, keyPrefix: 'gw:' })
    : createMemoryRateLimiter({ nowMs: () => systemClock.nowMs() });
  const watcher = watchCacheVersions({
    db: database.db,
    intervalMs: 500,
    onChange: async (name) => {
      if (name === 'api_keys') await apiKeyCache.reload();
      if (name === 'balances') await creditHolds.refresh();
      if (name === 'catalog') await priceList.reload();
      if (name === 'catalog') await imagePriceTiers.reload();
      if (name === 'catalog' || name === 'routes') await routeTable.reload();
      if (name === 'account_terms') await accountTerms.reload();
    },
    onError: (error) => logger.error({ err: error }, 'cache refresh failed'),
  });
  const renewals = scheduleRenewals({
    intervalMs: renewalIntervalMs,
    renew: () => renewSubscriptions({ db: database.db, clock: systemClock, ids: cryptoIds, creditHolds, accountTerms }),
    onError: (error) => logger.error({ err: error }, 'subscription renewal pass failed'),
  });
  // The SSRF guard: model upstreams on private addresses only when allowed; the simulator is the one exemption.
  const upstreamAddresses = {
    allowPrivate: config.allowPrivateUpstreams,
    trustedOrigins: simulator ? [simulator.url] : [],
  };
  const upstreamAgent = createUpstreamAgent({ connectTimeoutMs: 10_000, addresses: upstreamAddresses });
  const routeDispatchers = createRouteDispatchers(upstreamAddresses);
  // The search engine is the operator's own configuration (often a local SearXNG), not a route: no guard.
  const searchAgent = createUpstreamAgent({
    connectTimeoutMs: 10_000,
    addresses: { allowPrivate: true, trustedOrigins: [] },
  });
  const metrics = createHttpMetrics();
  // Math.random only orders equally good routes when a request has no conversation to keep on one route.
  const routing = createRouting({
    clock: systemClock,
    random: Math.random,
    settings: config.routing,
    registry: metrics.registry,
  });
  const webSearch = await startWebSearch({ ...config.search, isSandbox: config.isSandbox, dispatcher: searchAgent });
  const payments = await startPayments({ config, db: database.db, creditHolds, logger });
  const app = await buildApp({
    ...payments,
    db: database.db,
    redis,
    isShuttingDown: () => isShuttingDown,
    apiKeyCache,
    creditHolds,
    settlements,
    accountTerms,
    rateLimiter,
    welcomeBalanceMicros: config.welcomeBalanceMicros,
    passwords: argon2PasswordHasher,
    spendCapHolds: createSpendCapHolds(),
    defaultRequestsPerMinute: config.defaultRequestsPerMinute,
    clock: systemClock,
    ids: cryptoIds,
    priceList,
    routeTable,
    isSandbox: config.isSandbox,
    publicBaseUrl: config.publicBaseUrl,
    directBaseUrl: config.directBaseUrl,
    hasConfiguredBaseUrl: config.hasConfiguredBaseUrl,
    logger,
    metrics,
    routing,
    secretBox,
    allowPrivateUpstreams: config.allowPrivateUpstreams,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    version: packageVersion,
    webDistDir: config.webDistDir,
    keepAliveIntervalMs: config.keepAliveIntervalMs,
    imageTimeoutMs: config.imageTimeoutMs,
    imagePriceTiers,
    searchEngine: webSearch.engine,
    nativeSearchProviders: config.search.nativeProviders,
    upstream: {
      dispatcher: upstreamAgent,
      dispatcherFor: routeDispatchers.dispatcherFor,
      routing,
      onAttemptFailed: (route, failure) =>
        logger.warn(
          { route: route.id, status: failure.status, kind: failure.kind, vendorCode: failure.vendorCode },
          'upstream attempt failed',
        ),
    },
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    watcher.stop();
    await renewals.stop();
    await payments.stop();
    await settlements.close();
    journalLock.release();
    redis?.disconnect();
    await webSearch.close();
    await simulator?.close();
    await database.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const closeGateway = async () => {
    isShuttingDown = true;
    watcher.stop();
    await renewals.stop();
    await payments.stop();
    const deadline = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs);
    await app.close();
    clearTimeout(deadline);
    await settlements.close();
    journalLock.release();
    await redis?.quit();
    await webSearch.close();
    await upstreamAgent.close();
    await searchAgent.close();
    await routeDispatchers.close();
    await simulator?.close();
    await database.close();
  };
  const address = app.server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url,
    database,
    simulator,
    // Closing twice (a signal and a test's clean-up) closes once.
    close: () => (closing ??= closeGateway()),
  };
}

const journalFolder = 'settlements';

/**
 * Credit holds in memory (one node) or in Redis (several nodes), after the charges an earlier process journaled
 * but did not write are in the database: a restarted node then takes back the holds and pending charges it left.
 */
async function startCreditHolds(input: {
  db: DatabaseHandle['db'];
  redis: Redis | undefined;
  dataDir: string;
  logger: Logger;
}): Promise<CreditHolds> {
  const recovered = await recoverSettlementJournal({
    db: input.db,
    journalDirectory: path.join(input.dataDir, journalFolder),
  });
  if (recovered.chargeCount > 0) {
    input.logger.warn({ charges: recovered.chargeCount }, 'wrote the charges a stopped process had journaled');
  }
  if (!input.redis) return createMemoryCreditHolds({ db: input.db });
  const nodeId = loadNodeId(input.dataDir);
  const shared = createRedisCreditHolds({ db: input.db, redis: input.redis, keyPrefix: 'gw:', nodeId });
  const released = await shared.forgetPreviousLife(recovered.userIds);
  if (released > 0) input.logger.warn({ holds: released }, 'released the credit holds a stopped process left');
  return shared;
}
