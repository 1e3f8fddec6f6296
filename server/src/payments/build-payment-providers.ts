import type { Clock } from '../lib/clock.ts';
import type { PaymentHttp, PaymentProvider } from './payment-provider.ts';
import { createCloudPaymentsProvider } from './providers/cloudpayments/cloudpayments-provider.ts';
import { createStripeProvider } from './providers/stripe/stripe-provider.ts';
import { createYooKassaProvider } from './providers/yookassa/yookassa-provider.ts';

/** Each provider's public API root (live mode). */
export const paymentApiRoots = {
  yookassa: 'https://api.yookassa.ru',
  stripe: 'https://api.stripe.com',
  cloudpayments: 'https://api.cloudpayments.ru',
} as const;

/** The provider credentials the environment holds (config/payment-config.ts reads them). */
export type LivePaymentCredentials = {
  readonly yookassa: { readonly shopId: string; readonly secretKey: string } | undefined;
  readonly yookassaVatCode: number;
  readonly stripe: { readonly secretKey: string; readonly webhookSecret: string } | undefined;
  readonly cloudPayments: { readonly publicId: string; readonly apiSecret: string } | undefined;
};

/**
 * The live providers whose credentials the environment holds, in the order the top-up panel offers them (YooKassa
 * first for roubles: it serves card, SBP and the wallet). Money through them is real money (`isSandbox: false`).
 */
export function buildLivePaymentProviders(
  config: LivePaymentCredentials,
  deps: { http: PaymentHttp; clock: Clock },
): PaymentProvider[] {
  const providers: PaymentProvider[] = [];
  const common = { isSandbox: false, http: deps.http, clock: deps.clock };
  if (config.yookassa) {
    providers.push(
      createYooKassaProvider({
        ...common,
        ...config.yookassa,
        vatCode: config.yookassaVatCode,
        apiBaseUrl: paymentApiRoots.yookassa,
      }),
    );
  }
  if (config.stripe) {
    providers.push(createStripeProvider({ ...common, ...config.stripe, apiBaseUrl: paymentApiRoots.stripe }));
  }
  if (config.cloudPayments) {
    providers.push(
      createCloudPaymentsProvider({ ...common, ...config.cloudPayments, apiBaseUrl: paymentApiRoots.cloudpayments }),
    );
  }
  return providers;
}
