import type { Logger } from 'pino';
import type { CreditHolds } from './billing/credit-holds.ts';
import type { Config } from './config/config.ts';
import { welcomeOnFirstPayment } from './start-account-mail.ts';
import type { Database } from './db/database.ts';
import { systemClock } from './lib/clock.ts';
import { cryptoIds } from './lib/ids.ts';
import { buildLivePaymentProviders } from './payments/build-payment-providers.ts';
import { createPaymentHttp } from './payments/create-payment-http.ts';
import { refreshFxRate } from './payments/fx/fx-rates.ts';
import { createPaymentProviders, type PaymentProviders } from './payments/payment-providers.ts';
import { reconcileTopUpOrders, reconciliationIntervalMs } from './payments/reconcile-top-up-orders.ts';
import type { FxSettings } from './payments/fx/fx-rates.ts';
import type { PaymentHttp } from './payments/payment-provider.ts';
import type { TopUpSettings } from './payments/quote-top-up-order.ts';
import { createUpstreamAgent } from './upstream/create-upstream-agent.ts';
import { scheduleRenewals } from './subscriptions/schedule-renewals.ts';
import { sandboxUsdtTron, startTronWatching } from './start-tron-watching.ts';
import { parseTronXpub } from './payments/providers/tron/tron-address.ts';
import { createNowPaymentsDepositStore } from './payments/create-nowpayments-deposit-store.ts';
import {
  createNowPaymentsProvider,
  type NowPaymentsDepositStore,
} from './payments/providers/nowpayments/nowpayments-provider.ts';
import type { SandboxSimulatorUrls } from './payments/send-sandbox-transfer.ts';
import { nowPaymentsApiRoot } from './payments/providers/nowpayments/nowpayments-api.ts';

/** What the top-up routes need from the composition root. */
export type RunningPayments = {
  paymentProviders: PaymentProviders;
  paymentHttp: PaymentHttp;
  fx: FxSettings;
  topUps: TopUpSettings;
  isPaymentSandbox: boolean;
  /** The TronGrid simulator's address in payment sandbox mode (tests and the sandbox site send transfers there). */
  sandboxTronGridUrl: string | undefined;
  /** The payment simulators' addresses in sandbox mode, for the sandbox site's "send transfer" buttons. */
  sandboxSimulators: SandboxSimulatorUrls;
  /** The console links a TRON transaction to `<tronExplorerTxUrl><tx id>` (TRON_EXPLORER_TX_URL). */
  tronExplorerTxUrl: string;
  /** Which way serves USDT; in sandbox mode `processor` starts the NOWPayments simulator (start-sandbox-payments.ts). */
  usdtWay: 'direct' | 'processor';
  cryptoDepositStore: NowPaymentsDepositStore;
  topUpReturnUrl: string;
  /** Each provider's notifications go to `<webhookBaseUrl>/<provider id>` (shown in the operator console). */
  webhookBaseUrl: string;
  onBalancesChanged: () => Promise<void>;
  /** Stops the FX refresh and reconciliation schedules (waiting for a pass under way) and the CBR simulator. */
  stop: () => Promise<void>;
};

/**
 * Top-ups: the payment providers (each provider folder's factory, from its credentials or, in payment sandbox mode,
 * its simulator), the FX rate refresh and the reconciliation pass on their schedules, and one log line per webhook
 * URL the operator registers with a provider.
 */
export async function startPayments(input: {
  config: Config;
  db: Database;
  creditHolds: CreditHolds;
  logger: Logger;
}): Promise<RunningPayments> {
  const { config, logger } = input;
  const settings = config.payments;
  // Refused before anything starts: a malformed or private key stops start-up with a message naming the setting.
  if (settings.usdtTron) parseTronXpub(settings.usdtTron.xpub);
  const agent = createUpstreamAgent({
    connectTimeoutMs: 10_000,
    addresses: { allowPrivate: true, trustedOrigins: [] },
  });
  const paymentHttp = createPaymentHttp({ dispatcher: agent });
  // Sandbox payments read rates from the feed's simulator, so a fresh install quotes RUB without reaching the CBR.
  const cbrSimulator =
    settings.isSandbox && settings.fx.fixedMicroRoublesPerUsd === undefined
      ? await (await import('../../simulators/cbr/start-cbr-simulator.ts')).startCbrSimulator()
      : undefined;
  const fx: FxSettings = { ...settings.fx, cbrUrl: cbrSimulator?.url ?? settings.fx.cbrUrl };
  // Live providers come from their credentials; in payment sandbox mode start-gateway.ts adds the simulators' clients
  // once the gateway listens (they notify its own address).
  const paymentProviders = createPaymentProviders(
    settings.isSandbox ? [] : buildLivePaymentProviders(settings, { http: paymentHttp, clock: systemClock }),
    settings.methodProviders,
  );
  const onBalancesChanged = () => input.creditHolds.refresh();
  // Sandbox payments watch the TronGrid simulator, with a throwaway xpub, so no real address is ever shown.
  const tronGridSimulator = settings.isSandbox
    ? await (await import('../../simulators/payments/trongrid/start-trongrid-simulator.ts')).startTronGridSimulator()
    : undefined;
  const usdtTron =
    settings.usdtWay !== 'direct'
      ? undefined
      : tronGridSimulator
        ? sandboxUsdtTron(tronGridSimulator.url)
        : settings.usdtTron;
  const tronWatching = usdtTron
    ? startTronWatching({
        config: usdtTron,
        db: input.db,
        http: paymentHttp,
        isSandbox: settings.isSandbox,
        onBalancesChanged,
        logger,
      })
    : undefined;
  if (tronWatching) paymentProviders.add(tronWatching.provider);
  const cryptoDepositStore = createNowPaymentsDepositStore({ db: input.db, clock: systemClock });
  if (!settings.isSandbox && settings.usdtWay === 'processor' && settings.nowPayments) {
    paymentProviders.add(
      createNowPaymentsProvider({
        ...settings.nowPayments,
        apiBaseUrl: nowPaymentsApiRoot,
        ipnCallbackUrl: `${config.publicBaseUrl}/webhooks/nowpayments`,
        store: cryptoDepositStore,
        http: paymentHttp,
        isSandbox: false,
      }),
    );
  }
  for (const provider of paymentProviders.list) {
    logger.info(
      { provider: provider.id, url: `${config.publicBaseUrl}/webhooks/${provider.id}`, isSandbox: provider.isSandbox },
      'payment webhook URL to register with the provider',
    );
  }
  const fxDeps = { db: input.db, clock: systemClock, paymentHttp, fx };
  const fxRefresh = scheduleRenewals({
    intervalMs: settings.fx.refreshIntervalMs,
    renew: () => refreshFxRate(fxDeps),
    onError: (error) => logger.warn({ err: error }, 'fetching the CBR exchange rate failed; quoting the stored rate'),
  });
  const reconciliation = scheduleRenewals({
    intervalMs: reconciliationIntervalMs,
    renew: () =>
      reconcileTopUpOrders({
        db: input.db,
        clock: systemClock,
        ids: cryptoIds,
        welcomeOnFirstPayment: welcomeOnFirstPayment(config),
        paymentProviders,
        onBalancesChanged,
        onOrderError: (orderId, error) => logger.warn({ err: error, orderId }, 'reconciling a top-up order failed'),
      }),
    onError: (error) => logger.error({ err: error }, 'top-up reconciliation pass failed'),
  });
  return {
    paymentProviders,
    paymentHttp,
    fx,
    topUps: { minimumMinorUnits: settings.minimumMinorUnits, orderTtlMs: settings.orderTtlMs },
    isPaymentSandbox: settings.isSandbox,
    sandboxTronGridUrl: tronGridSimulator?.url,
    // start-sandbox-payments.ts fills in the NOWPayments simulator once it has started.
    sandboxSimulators: { tronGrid: tronGridSimulator?.url, nowPayments: undefined },
    usdtWay: settings.usdtWay,
    tronExplorerTxUrl: settings.tronExplorerTxUrl,
    cryptoDepositStore,
    topUpReturnUrl: `${config.publicBaseUrl}/billing/return`,
    webhookBaseUrl: `${config.publicBaseUrl}/webhooks`,
    onBalancesChanged,
    stop: async () => {
      await fxRefresh.stop();
      await reconciliation.stop();
      await tronWatching?.stop();
      await tronGridSimulator?.close();
      await agent.close();
      await cbrSimulator?.close();
    },
  };
}
