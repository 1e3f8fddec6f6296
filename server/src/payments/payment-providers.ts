import type { PaymentMethodId, PaymentProvider, PaymentProviderId } from './payment-provider.ts';

/** The payment providers this gateway runs with (those configured, or their simulators in sandbox mode). */
export type PaymentProviders = {
  list: readonly PaymentProvider[];
  find: (id: string) => PaymentProvider | undefined;
  /**
   * The provider that serves a method: the operator's choice for it when one is made (and none when that provider
   * is not running, so the method is plainly unavailable rather than silently served by another); else the first
   * listed that serves it.
   */
  forMethod: (method: PaymentMethodId) => PaymentProvider | undefined;
  /** Adds a provider started after the app (the sandbox simulators need the gateway's listening address). */
  add: (provider: PaymentProvider) => void;
};

export const paymentProviderIds = [
  'yookassa',
  'stripe',
  'cloudpayments',
  'tron',
  'nowpayments',
] as const satisfies readonly PaymentProviderId[];
export const paymentMethodIds = [
  'card_rub',
  'sbp',
  'yoo_money',
  'card_usd',
  'usdt_trc20',
] as const satisfies readonly PaymentMethodId[];

/**
 * One list of the running providers. `start-gateway.ts` builds each configured provider with its factory
 * (`payments/providers/<id>/<id>-provider.ts`) and passes them here; tests pass their own.
 */
export function createPaymentProviders(
  providers: readonly PaymentProvider[],
  methodProviders: Readonly<Partial<Record<PaymentMethodId, PaymentProviderId>>> = {},
): PaymentProviders {
  const running = [...providers];
  const byId = new Map<string, PaymentProvider>(running.map((provider) => [provider.id, provider]));
  return {
    get list() {
      return running;
    },
    find: (id) => byId.get(id),
    forMethod: (method) => {
      const chosen = methodProviders[method];
      return running.find(
        (provider) => provider.methods.includes(method) && (chosen === undefined || provider.id === chosen),
      );
    },
    add: (provider) => {
      running.push(provider);
      byId.set(provider.id, provider);
    },
  };
}
