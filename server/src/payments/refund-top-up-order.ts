import { createHash } from 'node:crypto';
import type { OperatorPayment, RefundTopUpRequest } from '../../../contract/payments.ts';
import { findTopUpOrder } from '../db/top-up-orders.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { applyPaymentEvent, type PaymentCoreDeps } from './apply-payment-event.ts';
import { getOperatorPayment, type OperatorPaymentViewDeps } from './list-operator-payments.ts';
import { isCreditedStatus } from './order-state-machine.ts';
import { PaymentProviderError } from './providers/shared/payment-provider-error.ts';
import type { PaymentCurrency } from './payment-provider.ts';
import type { PaymentProviders } from './payment-providers.ts';
import { formatMinor } from './quote-top-up-order.ts';

export type RefundTopUpDeps = PaymentCoreDeps &
  OperatorPaymentViewDeps & { paymentProviders: Pick<PaymentProviders, 'find'> };

/**
 * Refunds (part of) a credited order through the provider's API, then books it as a reversing ledger entry through
 * `applyPaymentEvent`, which follows the provider's refunded total: the provider's own refund notification, when it
 * comes, finds the refund already booked. The idempotency key makes a retried request one refund at the provider.
 */
export async function refundTopUpOrder(
  deps: RefundTopUpDeps,
  input: { orderId: string; request: RefundTopUpRequest; newKey: () => string },
): Promise<OperatorPayment> {
  const order = await findTopUpOrder(deps.db, input.orderId);
  if (!order) throw new NotFoundError(`There is no top-up \`${input.orderId}\`.`);
  const provider = deps.paymentProviders.find(order.provider);
  if (!isCreditedStatus(order.status) || order.provider_payment_id === null || !provider) {
    throw new ConflictError('Only a top-up paid through a running provider can be refunded.', {
      code: 'not_refundable',
    });
  }
  if (provider.refunds === 'none') {
    throw new ConflictError(
      `A ${provider.id} payment cannot be refunded through its API; refund it outside the gateway.`,
      {
        code: 'not_refundable',
      },
    );
  }
  const remainingMinor = order.pay_minor_units - order.refunded_minor_units - order.charged_back_minor_units;
  const amountMinor = input.request.amount_minor ?? remainingMinor;
  if (amountMinor > remainingMinor || amountMinor <= 0) {
    throw new InvalidRequestError(
      `At most ${formatMinor(Math.max(remainingMinor, 0))} ${order.pay_currency} of this top-up can still be refunded.`,
      { param: 'amount_minor', code: 'exceeds_refundable' },
    );
  }
  const amount = { currency: order.pay_currency as PaymentCurrency, minorUnits: amountMinor };
  let refund;
  try {
    refund = await provider.refundPayment({
      providerPaymentId: order.provider_payment_id,
      amount,
      idempotencyKey: deriveRefundKey(order.id, input.request.idempotency_key ?? input.newKey()),
    });
  } catch (error) {
    if (isRefusal(error)) {
      throw new ConflictError(`The payment provider refused this refund: ${error.message}`, { code: 'not_refundable' });
    }
    throw new UpstreamError('The payment provider did not accept the refund; nothing was refunded or booked.', {
      code: 'payment_provider_unavailable',
      cause: error,
    });
  }
  await applyPaymentEvent(deps, {
    provider,
    event: {
      kind: 'refunded',
      eventKey: `operator-refund:${refund.refundId}`,
      providerPaymentId: order.provider_payment_id,
      orderId: order.id,
      amount,
      isTest: provider.isSandbox,
    },
    source: 'operator',
  });
  return getOperatorPayment(deps, order.id);
}

/**
 * The key the provider sees for this refund: a digest of the order id and the operator's key (or a new one), so it
 * fits every provider's header whatever the operator sent. The operator's key may be any 1–100 characters, but an
 * HTTP header carries only visible ASCII, and YooKassa takes at most 64 characters in `Idempotence-Key`: sent as
 * they were, a non-ASCII key failed in our HTTP client as if the provider were down (a 502, after YooKassa's
 * 2 s + 10 s of retries), and every YooKassa refund was refused (found by the fuzz run). The same operator key still
 * makes the same provider key, so a retried request stays one refund.
 */
function deriveRefundKey(orderId: string, operatorKey: string): string {
  return `refund-${createHash('sha256').update(`${orderId}\n${operatorKey}`, 'utf8').digest('base64url')}`;
}

/**
 * The provider said no to this payment (it has nothing paid to refund, e.g. an order the operator marked paid by hand),
 * as opposed to being down or rejecting the gateway's credentials: the operator's request cannot succeed, so it is a
 * 409, not a 502 (found by the fuzz run).
 */
function isRefusal(error: unknown): error is PaymentProviderError {
  if (!(error instanceof PaymentProviderError) || error.isRetryable) return false;
  const status = error.httpStatus;
  return status === undefined || (status >= 400 && status < 500 && status !== 401 && status !== 403);
}
