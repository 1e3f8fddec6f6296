import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import type { Logger } from 'pino';
import type { UsdtTronConfig } from './config/payment-config.ts';
import type { Database } from './db/database.ts';
import { systemClock } from './lib/clock.ts';
import { cryptoIds } from './lib/ids.ts';
import { createTronDepositStore } from './payments/create-tron-deposit-store.ts';
import type { PaymentHttp, PaymentProvider } from './payments/payment-provider.ts';
import { scheduleWithBackoff } from './payments/providers/tron/schedule-with-backoff.ts';
import { parseTronXpub } from './payments/providers/tron/tron-address.ts';
import { createTronProvider } from './payments/providers/tron/tron-provider.ts';
import { watchTronDeposits } from './payments/providers/tron/watch-tron-deposits.ts';

/** The longest wait between passes while TronGrid keeps failing or rate-limiting. */
const maxBackoffMs = 10 * 60_000;

/**
 * USDT on TRON watched directly: reads the operator's xpub (a malformed or private key throws `TronXpubError`, and
 * start-up stops with its message), builds the `tron` provider and runs the chain watcher on its schedule, backing
 * off while TronGrid fails. In sandbox mode the TronGrid URL is the simulator's.
 */
export function startTronWatching(input: {
  config: UsdtTronConfig;
  db: Database;
  http: PaymentHttp;
  isSandbox: boolean;
  onBalancesChanged: () => Promise<void>;
  logger: Logger;
}): { provider: PaymentProvider; stop: () => Promise<void> } {
  const { config, logger } = input;
  const account = parseTronXpub(config.xpub);
  const provider = createTronProvider({
    account,
    store: createTronDepositStore({ db: input.db, clock: systemClock }),
    microUsdtPerUsd: config.microUsdtPerUsd,
    isSandbox: input.isSandbox,
  });
  const watching = scheduleWithBackoff({
    intervalMs: config.pollIntervalMs,
    maxDelayMs: Math.max(maxBackoffMs, config.pollIntervalMs),
    run: () =>
      watchTronDeposits({
        db: input.db,
        clock: systemClock,
        ids: cryptoIds,
        onBalancesChanged: input.onBalancesChanged,
        tronGrid: { http: input.http, apiBaseUrl: config.tronGridUrl, apiKey: config.apiKey },
        provider,
        watchWindowMs: config.watchWindowMs,
        onOrderError: (orderId, error) => logger.warn({ err: error, orderId }, 'watching a USDT deposit failed'),
      }),
    onError: (error, nextDelayMs) =>
      logger.warn({ err: error, nextDelayMs }, 'TronGrid failed; the USDT watcher backs off and orders keep waiting'),
  });
  return { provider, stop: watching.stop };
}

/** Sandbox settings: a fresh random account key (its private half is dropped at once) and the simulator's URL. */
export function sandboxUsdtTron(tronGridUrl: string): UsdtTronConfig {
  return {
    xpub: HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/195'/0'").publicExtendedKey,
    tronGridUrl,
    apiKey: undefined,
    microUsdtPerUsd: 1_000_000,
    pollIntervalMs: 3000,
    watchWindowMs: 7 * 24 * 3_600_000,
  };
}
