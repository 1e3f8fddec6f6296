import { randomBytes } from 'node:crypto';
import { systemClock } from './lib/clock.ts';
import type { PaymentHttp } from './payments/payment-provider.ts';
import type { PaymentProviders } from './payments/payment-providers.ts';
import { createCloudPaymentsProvider } from './payments/providers/cloudpayments/cloudpayments-provider.ts';
import { createStripeProvider } from './payments/providers/stripe/stripe-provider.ts';
import { createYooKassaProvider } from './payments/providers/yookassa/yookassa-provider.ts';
import {
  createNowPaymentsProvider,
  type NowPaymentsDepositStore,
} from './payments/providers/nowpayments/nowpayments-provider.ts';
import type { SandboxSimulatorUrls } from './payments/send-sandbox-transfer.ts';
import type { NowPaymentsSimulator } from '../../simulators/payments/nowpayments/start-nowpayments-simulator.ts';

/**
 * Payment sandbox mode: starts each provider's simulator (loaded only here, by dynamic import) with throwaway
 * credentials, notifying this gateway's own `/webhooks/<id>`, and adds a sandbox client of each to the running
 * providers. The clients are the production ones; only their API root is the simulator's.
 */
export async function startSandboxPayments(input: {
  gatewayUrl: string;
  paymentHttp: PaymentHttp;
  paymentProviders: PaymentProviders;
  usdtWay: 'direct' | 'processor';
  cryptoDepositStore: NowPaymentsDepositStore;
  sandboxSimulators: SandboxSimulatorUrls;
}): Promise<{ close: () => Promise<void>; nowPaymentsSimulator?: NowPaymentsSimulator }> {
  const secret = () => randomBytes(16).toString('hex');
  const notificationUrl = (id: string) => `${input.gatewayUrl}/webhooks/${id}`;
  const common = { isSandbox: true, http: input.paymentHttp, clock: systemClock };
  const yookassa = { shopId: 'sandbox-shop', secretKey: `test_${secret()}` };
  const stripe = { secretKey: `sk_test_${secret()}`, webhookSecret: `whsec_${secret()}` };
  const cloudPayments = { publicId: 'pk_sandbox', apiSecret: secret() };
  const [yookassaSimulator, stripeSimulator, cloudPaymentsSimulator] = await Promise.all([
    import('../../simulators/payments/yookassa/start-yookassa-simulator.ts').then((module) =>
      module.startYooKassaSimulator({ ...yookassa, notificationUrl: notificationUrl('yookassa') }),
    ),
    import('../../simulators/payments/stripe/start-stripe-simulator.ts').then((module) =>
      module.startStripeSimulator({ ...stripe, notificationUrl: notificationUrl('stripe') }),
    ),
    import('../../simulators/payments/cloudpayments/start-cloudpayments-simulator.ts').then((module) =>
      module.startCloudPaymentsSimulator({ ...cloudPayments, notificationUrl: notificationUrl('cloudpayments') }),
    ),
  ]);
  input.paymentProviders.add(
    createYooKassaProvider({ ...common, ...yookassa, vatCode: 1, apiBaseUrl: yookassaSimulator.url }),
  );
  input.paymentProviders.add(createStripeProvider({ ...common, ...stripe, apiBaseUrl: stripeSimulator.url }));
  input.paymentProviders.add(
    createCloudPaymentsProvider({ ...common, ...cloudPayments, apiBaseUrl: cloudPaymentsSimulator.url }),
  );
  const nowPayments = input.usdtWay === 'processor' ? await startSandboxNowPayments({ ...input, secret }) : undefined;
  input.sandboxSimulators.nowPayments = nowPayments?.url;
  return {
    close: async () => {
      await Promise.all([yookassaSimulator.close(), stripeSimulator.close(), cloudPaymentsSimulator.close()]);
      await nowPayments?.close();
    },
    ...(nowPayments ? { nowPaymentsSimulator: nowPayments } : {}),
  };
}

/** The NOWPayments simulator (USDT through a processor), its IPNs to this gateway's `/webhooks/nowpayments`. */
async function startSandboxNowPayments(input: {
  gatewayUrl: string;
  paymentHttp: PaymentHttp;
  paymentProviders: PaymentProviders;
  cryptoDepositStore: NowPaymentsDepositStore;
  secret: () => string;
}): Promise<NowPaymentsSimulator> {
  const credentials = { apiKey: input.secret(), ipnSecret: input.secret() };
  const { startNowPaymentsSimulator } =
    await import('../../simulators/payments/nowpayments/start-nowpayments-simulator.ts');
  const simulator = await startNowPaymentsSimulator(credentials);
  input.paymentProviders.add(
    createNowPaymentsProvider({
      ...credentials,
      apiBaseUrl: simulator.url,
      ipnCallbackUrl: `${input.gatewayUrl}/webhooks/nowpayments`,
      store: input.cryptoDepositStore,
      http: input.paymentHttp,
      isSandbox: true,
    }),
  );
  return simulator;
}
