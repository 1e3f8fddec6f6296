import type { PaymentEvent, ProviderPayment, WebhookDelivery } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { parseNotificationJson } from '../shared/parse-provider-json.ts';
import { convertRubAmount, convertYooKassaPayment } from './convert-yookassa-payment.ts';
import type { YooKassaPayment, YooKassaRefund } from './yookassa-api.ts';
import { yooKassaNotificationSchema, yooKassaPaymentSchema, yooKassaRefundSchema } from './yookassa-api.ts';

/** The API reads a notification is checked against (YooKassa signs nothing, so only the API is believed). */
export type YooKassaLookups = {
  getPayment: (paymentId: string) => Promise<YooKassaPayment>;
  getRefund: (refundId: string) => Promise<YooKassaRefund>;
};

const paymentStatusByEvent: Readonly<Record<string, 'succeeded' | 'canceled'>> = {
  'payment.succeeded': 'succeeded',
  'payment.canceled': 'canceled',
};

/**
 * A YooKassa notification → events. YooKassa has no signature, so every fact comes from re-fetching the object
 * (`GET /v3/payments/{id}`, `GET /v3/refunds/{id}`); the notified copy must agree with the fetched one in status,
 * amount, currency and order id, or the delivery is rejected as forged. A failed fetch throws the API error (not a
 * rejection), so the gateway answers non-200 and YooKassa re-delivers. @see https://yookassa.ru/developers/using-api/webhooks
 */
export async function verifyYooKassaNotification(
  delivery: WebhookDelivery,
  lookups: YooKassaLookups,
): Promise<readonly PaymentEvent[]> {
  const notification = parseNotificationJson(yooKassaNotificationSchema, delivery.rawBody);
  const expectedStatus = paymentStatusByEvent[notification.event];
  if (expectedStatus) {
    return [await verifyPaymentEvent(notification.object, expectedStatus, lookups)];
  }
  if (notification.event === 'refund.succeeded') return [await verifyRefundEvent(notification.object, lookups)];
  const eventKey = `${notification.event}:${notification.object.id}`;
  return [{ kind: 'ignored', eventKey, reason: `YooKassa event ${notification.event} needs no action` }];
}

async function verifyPaymentEvent(
  object: unknown,
  expectedStatus: 'succeeded' | 'canceled',
  lookups: YooKassaLookups,
): Promise<PaymentEvent> {
  const notified = yooKassaPaymentSchema.safeParse(object);
  if (!notified.success) throw new WebhookRejectedError('the notified payment object is malformed');
  const fetched = await lookups.getPayment(notified.data.id);
  const payment = convertYooKassaPayment(fetched);
  if (!payment) throw new WebhookRejectedError('the fetched payment is not a RUB amount');
  const notifiedPayment = convertYooKassaPayment(notified.data);
  if (!notifiedPayment || !isSamePayment(notifiedPayment, payment)) {
    throw new WebhookRejectedError('the notified payment disagrees with the payment fetched from YooKassa');
  }
  if (payment.status !== expectedStatus) {
    throw new WebhookRejectedError(`the notification says ${expectedStatus} but YooKassa says ${payment.status}`);
  }
  return { kind: expectedStatus, eventKey: `${payment.providerPaymentId}:${expectedStatus}`, payment };
}

function isSamePayment(notified: ProviderPayment, fetched: ProviderPayment): boolean {
  return (
    notified.providerPaymentId === fetched.providerPaymentId &&
    notified.status === fetched.status &&
    notified.amount.currency === fetched.amount.currency &&
    notified.amount.minorUnits === fetched.amount.minorUnits &&
    notified.orderId === fetched.orderId
  );
}

async function verifyRefundEvent(object: unknown, lookups: YooKassaLookups): Promise<PaymentEvent> {
  const notified = yooKassaRefundSchema.safeParse(object);
  if (!notified.success) throw new WebhookRejectedError('the notified refund object is malformed');
  const refund = await lookups.getRefund(notified.data.id);
  const minorUnits = convertRubAmount(refund.amount);
  const isSameRefund =
    refund.status === 'succeeded' &&
    notified.data.status === 'succeeded' &&
    refund.payment_id === notified.data.payment_id &&
    minorUnits !== undefined &&
    minorUnits === convertRubAmount(notified.data.amount);
  if (!isSameRefund)
    throw new WebhookRejectedError('the notified refund disagrees with the refund fetched from YooKassa');
  // The refund object carries no metadata: the order id and test flag come from its payment.
  const payment = convertYooKassaPayment(await lookups.getPayment(refund.payment_id));
  if (!payment) throw new WebhookRejectedError('the refunded payment is not a RUB amount');
  return {
    kind: 'refunded',
    eventKey: `refund:${refund.id}:succeeded`,
    providerPaymentId: refund.payment_id,
    orderId: payment.orderId,
    amount: { currency: 'RUB', minorUnits },
    isTest: payment.isTest,
  };
}
