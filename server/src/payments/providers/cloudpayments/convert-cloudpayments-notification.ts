import type { PaymentEvent, WebhookDelivery } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { parseDecimalAmount, parseNumberAmount } from '../shared/minor-units.ts';
import { parseNotificationJson } from '../shared/parse-provider-json.ts';
import { computeHmacSha256, isSignatureMatch } from '../shared/verify-hmac.ts';
import type { CloudPaymentsNotification } from './cloudpayments-api.ts';
import { cloudPaymentsNotificationSchema } from './cloudpayments-api.ts';

/**
 * Checks `Content-HMAC` = base64(HMAC-SHA256(raw body, ApiSecret)) in constant time. CloudPayments also sends
 * `X-Content-HMAC`, the same HMAC over the URL-decoded body; it is accepted when Content-HMAC is absent (a proxy that
 * drops it). @see https://developers.cloudpayments.ru/ ("notification check")
 */
export function verifyContentHmac(delivery: WebhookDelivery, apiSecret: string): void {
  const contentHmac = delivery.headers['content-hmac'];
  const decodedHmac = delivery.headers['x-content-hmac'];
  if (contentHmac) {
    const expected = computeHmacSha256({ key: apiSecret, message: delivery.rawBody, encoding: 'base64' });
    if (isSignatureMatch(expected, contentHmac)) return;
  } else if (decodedHmac) {
    const decoded = decodeFormBody(delivery.rawBody);
    const expected = decoded && computeHmacSha256({ key: apiSecret, message: decoded, encoding: 'base64' });
    if (expected && isSignatureMatch(expected, decodedHmac)) return;
  }
  throw new WebhookRejectedError('the Content-HMAC signature is missing or does not match the body');
}

/** The body with its URL encoding undone, as X-Content-HMAC signs it; undefined when it is not valid URL encoding. */
function decodeFormBody(rawBody: Buffer): Buffer | undefined {
  try {
    return Buffer.from(decodeURIComponent(rawBody.toString('utf8').replace(/\+/g, ' ')), 'utf8');
  } catch {
    return undefined;
  }
}

/** Form-encoded or JSON, as the notification settings say; both read into the same fields. */
function parseNotification(delivery: WebhookDelivery): CloudPaymentsNotification {
  if (delivery.contentType?.toLowerCase().includes('json'))
    return parseNotificationJson(cloudPaymentsNotificationSchema, delivery.rawBody);
  const fields = Object.fromEntries(new URLSearchParams(delivery.rawBody.toString('utf8')));
  const parsed = cloudPaymentsNotificationSchema.safeParse(fields);
  if (!parsed.success) throw new WebhookRejectedError('the body does not match the documented notification format');
  return parsed.data;
}

function readMinorUnits(amount: string | number | boolean): number | undefined {
  if (typeof amount === 'number') return parseNumberAmount(amount);
  return typeof amount === 'string' ? parseDecimalAmount(amount) : undefined;
}

function isTrue(value: string | number | boolean | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 'true' || value === 'True';
}

/**
 * A verified notification → one event. All three types can come to one URL, so the type is read from the fields:
 * `OperationType: Refund` is a Refund, a non-zero `ReasonCode` is a Fail, `Status: Completed` is a Pay. Pay and Fail
 * are keyed by the transaction, so a Fail followed by a successful retry on the same order are two facts.
 */
export function convertCloudPaymentsNotification(delivery: WebhookDelivery): PaymentEvent {
  const notification = parseNotification(delivery);
  const minorUnits = readMinorUnits(notification.Amount);
  if (minorUnits === undefined || (notification.Currency ?? 'RUB') !== 'RUB')
    throw new WebhookRejectedError('the amount is not a RUB amount');
  const transactionId = String(notification.TransactionId);
  const orderId = notification.InvoiceId;
  // Our payment id is the InvoiceId (our order id): a payment made without one (e.g. by hand in the back office) is not ours.
  if (!orderId)
    return {
      kind: 'ignored',
      eventKey: `${transactionId}:no-invoice`,
      reason: 'CloudPayments notification without an InvoiceId',
    };
  const isTest = isTrue(notification.TestMode);
  const amount = { currency: 'RUB', minorUnits } as const;
  if (notification.OperationType === 'Refund') {
    return {
      kind: 'refunded',
      eventKey: `${transactionId}:refunded`,
      providerPaymentId: orderId,
      orderId,
      amount,
      isTest,
    };
  }
  const isFailed = notification.ReasonCode !== undefined && String(notification.ReasonCode) !== '0';
  if (!isFailed && notification.Status !== 'Completed') {
    return {
      kind: 'ignored',
      eventKey: `${transactionId}:${notification.Status ?? 'unknown'}`,
      reason: `CloudPayments status ${notification.Status ?? 'missing'} needs no action`,
    };
  }
  const status = isFailed ? 'canceled' : 'succeeded';
  const payment = {
    providerPaymentId: orderId,
    orderId,
    status,
    amount,
    refundedMinorUnits: 0,
    isTest,
    cancellationReason: isFailed ? notification.Reason : undefined,
  } as const;
  return { kind: status, eventKey: `${transactionId}:${status}`, payment };
}
