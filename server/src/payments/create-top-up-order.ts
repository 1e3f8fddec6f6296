import type { TopUpOrderRow } from '../db/schema.ts';
import { insertTopUpOrderTransition } from '../db/top-up-order-transitions.ts';
import { findTopUpOrder, insertTopUpOrder, lockTopUpOrder, updateTopUpOrder } from '../db/top-up-orders.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { formatUsd } from '../lib/money.ts';
import { decideOrderTransition } from './order-state-machine.ts';
import type { FiatAmount, PaymentMethodId } from './payment-provider.ts';
import { formatMinor, quoteTopUpOrder, type TopUpQuote, type TopUpQuoteDeps } from './quote-top-up-order.ts';
import { moveOrder } from './write-order-change.ts';

export type CreateTopUpOrderDeps = TopUpQuoteDeps & {
  ids: IdGenerator;
  /** Where the provider's page sends the user back; the order id is appended as `?order=`. */
  topUpReturnUrl: string;
};

/**
 * Creates one order per attempt: locks the quote, stores the order (`created`), asks the provider for its hosted
 * payment page with the order id as the idempotency key, and moves the order to `pending`. A provider that fails
 * cancels the order with the cause recorded and answers 502; nothing is charged, since no page was ever shown.
 */
export async function createTopUpOrder(
  deps: CreateTopUpOrderDeps,
  input: { userId: string; customerEmail: string; method: PaymentMethodId; amount: FiatAmount },
): Promise<{ order: TopUpOrderRow; quote: TopUpQuote }> {
  const quote = await quoteTopUpOrder(deps, input);
  const nowMs = deps.clock.nowMs();
  const order: TopUpOrderRow = {
    id: deps.ids.newId('tpo_'),
    user_id: input.userId,
    provider: quote.provider.id,
    method: quote.method,
    pay_minor_units: quote.amount.minorUnits,
    pay_currency: quote.amount.currency,
    credit_micros: quote.creditMicros,
    rate_micros_per_usd: quote.rate.microsPerUsd,
    rate_source: quote.rate.source,
    markup_basis_points: quote.rate.markupBasisPoints,
    quote_expires_at: quote.expiresAt,
    provider_payment_id: null,
    confirmation_url: null,
    status: 'created',
    is_sandbox: quote.provider.isSandbox ? 1 : 0,
    is_paid_after_expiry: 0,
    review_reason: null,
    credited_micros: 0,
    refunded_minor_units: 0,
    refunded_micros: 0,
    charged_back_minor_units: 0,
    charged_back_micros: 0,
    created_at: nowMs,
    updated_at: nowMs,
  };
  await deps.db.transaction().execute(async (trx) => {
    await insertTopUpOrder(trx, order);
    await insertTopUpOrderTransition(trx, {
      id: deps.ids.newId('tpt_'),
      order_id: order.id,
      from_status: null,
      to_status: 'created',
      cause: `quote ${quote.rate.source}: ${formatMinor(order.pay_minor_units)} ${order.pay_currency} → ${formatUsd(order.credit_micros)} USD`,
      at: nowMs,
    });
  });
  let created;
  try {
    created = await quote.provider.createPayment({
      orderId: order.id,
      userId: input.userId,
      method: quote.method,
      amount: quote.amount,
      description: `Balance top-up ${order.id}`,
      customerEmail: input.customerEmail,
      returnUrl: `${deps.topUpReturnUrl}?order=${encodeURIComponent(order.id)}`,
    });
  } catch (error) {
    await deps.db.transaction().execute(async (trx) => {
      const locked = await lockTopUpOrder(trx, order.id);
      const decision = locked ? decideOrderTransition(locked.status, { kind: 'provider_failed' }) : undefined;
      if (locked && decision?.kind === 'move') {
        await moveOrder(deps, trx, { order: locked, to: decision.to, cause: `provider failed: ${describe(error)}` });
      }
    });
    throw new UpstreamError(
      'The payment provider could not be reached, so no payment was started and nothing was charged. Please try again in a few minutes.',
      { code: 'payment_provider_unavailable', cause: error },
    );
  }
  await deps.db.transaction().execute(async (trx) => {
    const locked = await lockTopUpOrder(trx, order.id);
    if (!locked) return;
    const changes = { provider_payment_id: created.providerPaymentId, confirmation_url: created.confirmationUrl };
    const decision = decideOrderTransition(locked.status, { kind: 'payment_created' });
    // A fast webhook may already have moved the order on; the payment id and page are stored either way.
    if (decision.kind === 'move')
      await moveOrder(deps, trx, { order: locked, to: decision.to, cause: 'payment created', changes });
    else await updateTopUpOrder(trx, { id: order.id, changes });
  });
  const stored = await findTopUpOrder(deps.db, order.id);
  if (!stored) throw new Error(`top-up order ${order.id} vanished`);
  return { order: stored, quote };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
}
