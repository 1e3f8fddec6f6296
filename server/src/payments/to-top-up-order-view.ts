import type { OperatorPayment, TopUpOrderView, TopUpQuoteView } from '../../../contract/payments.ts';
import type { TopUpOrderRow } from '../db/schema.ts';
import type { TopUpOrderTransitionRow } from '../db/top-up-order-transitions.ts';
import { formatUsd, microsToUsd } from '../lib/money.ts';
import { effectiveMicrosPerUsd } from './fx/quote-top-up.ts';
import { isWaitingStatus } from './order-state-machine.ts';
import { formatMinor, type TopUpQuote } from './quote-top-up-order.ts';

/** 10_836_337 micro-USD → "10.83": what a person reads, rounded down like the credit itself. */
function formatUsdCents(micros: number): string {
  return formatMinor(Math.floor(micros / 10_000));
}

export function toTopUpQuoteView(quote: TopUpQuote): TopUpQuoteView {
  const sandbox = quote.provider.isSandbox ? ' (sandbox: no real money moves)' : '';
  return {
    method: quote.method,
    provider: quote.provider.id,
    currency: quote.amount.currency,
    amount_minor: quote.amount.minorUnits,
    amount_display: formatMinor(quote.amount.minorUnits),
    credit_usd: microsToUsd(quote.creditMicros),
    credit_micros: quote.creditMicros,
    rate: formatUsd(quote.effectiveMicrosPerUsd),
    rate_source: quote.rate.source,
    markup_percent: quote.rate.markupBasisPoints / 100,
    minimum_minor: quote.minimumMinorUnits,
    expires_at: new Date(quote.expiresAt).toISOString(),
    is_sandbox: quote.provider.isSandbox,
    summary: `You pay ${formatMinor(quote.amount.minorUnits)} ${quote.amount.currency}, your balance gets ${formatUsdCents(quote.creditMicros)} USD${sandbox}.`,
  };
}

export function toTopUpOrderView(row: TopUpOrderRow): TopUpOrderView {
  const rate = effectiveMicrosPerUsd({
    currency: row.pay_currency === 'USD' ? 'USD' : 'RUB',
    microsPerUsd: row.rate_micros_per_usd,
    source: row.rate_source,
    markupBasisPoints: row.markup_basis_points,
  });
  return {
    id: row.id,
    status: row.status,
    method: row.method,
    provider: row.provider,
    currency: row.pay_currency,
    amount_minor: row.pay_minor_units,
    credit_usd: microsToUsd(row.credit_micros),
    rate: formatUsd(rate),
    rate_source: row.rate_source,
    confirmation_url: isWaitingStatus(row.status) ? row.confirmation_url : null,
    is_sandbox: row.is_sandbox === 1,
    is_paid_after_expiry: row.is_paid_after_expiry === 1,
    refunded_usd: microsToUsd(row.refunded_micros),
    charged_back_usd: microsToUsd(row.charged_back_micros),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    expires_at: new Date(row.quote_expires_at).toISOString(),
  };
}

export function toOperatorPayment(
  row: TopUpOrderRow,
  transitions: readonly TopUpOrderTransitionRow[],
): OperatorPayment {
  return {
    ...toTopUpOrderView(row),
    user_id: row.user_id,
    provider_payment_id: row.provider_payment_id,
    review_reason: row.review_reason,
    transitions: transitions.map((transition) => ({
      from: transition.from_status,
      to: transition.to_status,
      cause: transition.cause,
      at: new Date(transition.at).toISOString(),
    })),
  };
}
