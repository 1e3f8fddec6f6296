import { randomBytes } from 'node:crypto';
import { systemClock } from './lib/clock.ts';
import type { PaymentHttp } from './payments/payment-provider.ts';
import type { PaymentProviders } from './payments/payment-providers.ts';
import { createCloudPaymentsProvider } from './payments/providers/cloudpayments/cloudpayments-provider.ts';
import { createStripeProvider } from './payments/providers/stripe/stripe-provider.ts';
import { createYooKassaProvider } from './payments/providers/yookassa/yookassa-provider.ts';

/**
 * Payment sandbox mode: starts each provider's simulator (loaded only here, by dynamic import) with throwaway
 * credentials, notifying this gateway's own `/webhooks/<id>`, and adds a sandbox client of each to the running
 * providers. The clients are the production ones; only their API root is the simulator's.
 */
export async function startSandboxPayments(input: {
  gatewayUrl: string;
  paymentHttp: PaymentHttp;
  paymentProviders: PaymentProviders;
}): Promise<{ close: () => Promise<void> }> {
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
  return {
    close: async () => {
      await Promise.all([yookassaSimulator.close(), stripeSimulator.close(), cloudPaymentsSimulator.close()]);
    },
  };
}
