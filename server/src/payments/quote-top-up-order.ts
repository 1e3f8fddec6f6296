import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { ServiceUnavailableError } from '../errors/service-unavailable-error.ts';
import { findRateToLock, type FxDeps } from './fx/fx-rates.ts';
import { creditMicrosFor, effectiveMicrosPerUsd, type LockedRate } from './fx/quote-top-up.ts';
import type { FiatAmount, PaymentCurrency, PaymentMethodId, PaymentProvider } from './payment-provider.ts';
import type { PaymentProviders } from './payment-providers.ts';

/** The operator's top-up rules: the smallest payment per currency (minor units) and how long a quote holds. */
export type TopUpSettings = {
  minimumMinorUnits: Readonly<Record<PaymentCurrency, number>>;
  orderTtlMs: number;
};

export type TopUpQuoteDeps = Pick<FxDeps, 'db' | 'clock' | 'fx'> & {
  paymentProviders: PaymentProviders;
  topUps: TopUpSettings;
};

/** What the user sees before paying and what the order locks: "you pay 1,000.00 RUB, your balance gets 10.52 USD". */
export type TopUpQuote = {
  provider: PaymentProvider;
  method: PaymentMethodId;
  amount: FiatAmount;
  rate: LockedRate;
  /** The rate with the markup, micro-units of the pay currency per USD (what the user is shown). */
  effectiveMicrosPerUsd: number;
  creditMicros: number;
  minimumMinorUnits: number;
  expiresAt: number;
};

/**
 * Quotes a top-up: the provider for the method, the minimum for its currency, the rate locked now and the USD it
 * credits. Refuses (400) an unknown method, a currency the method does not take and an amount under the minimum;
 * 503 when no exchange rate is known.
 */
export async function quoteTopUpOrder(
  deps: TopUpQuoteDeps,
  input: { method: PaymentMethodId; amount: FiatAmount },
): Promise<TopUpQuote> {
  const provider = deps.paymentProviders.forMethod(input.method);
  if (!provider) {
    throw new InvalidRequestError(`The payment method \`${input.method}\` is not available on this gateway.`, {
      param: 'method',
      code: 'payment_method_unavailable',
    });
  }
  if (input.amount.currency !== provider.currency) {
    throw new InvalidRequestError(`The method \`${input.method}\` takes payments in ${provider.currency}.`, {
      param: 'currency',
    });
  }
  const minimumMinorUnits = deps.topUps.minimumMinorUnits[input.amount.currency];
  if (input.amount.minorUnits < minimumMinorUnits) {
    throw new InvalidRequestError(
      `The smallest top-up is ${formatMinor(minimumMinorUnits)} ${input.amount.currency}.`,
      { param: 'amount', code: 'below_minimum' },
    );
  }
  const rate = await findRateToLock(deps, input.amount.currency);
  if (!rate) {
    throw new ServiceUnavailableError(
      `No current ${input.amount.currency}/USD exchange rate is available; top-ups in ${input.amount.currency} resume when it is. Nothing was charged.`,
      { code: 'exchange_rate_unavailable' },
    );
  }
  return {
    provider,
    method: input.method,
    amount: input.amount,
    rate,
    effectiveMicrosPerUsd: effectiveMicrosPerUsd(rate),
    creditMicros: creditMicrosFor(input.amount, rate),
    minimumMinorUnits,
    expiresAt: deps.clock.nowMs() + deps.topUps.orderTtlMs,
  };
}

/** 100000 → "1,000.00": minor units as the amount a person reads. */
export function formatMinor(minorUnits: number): string {
  const whole = Math.floor(minorUnits / 100).toLocaleString('en-US');
  return `${whole}.${String(minorUnits % 100).padStart(2, '0')}`;
}
