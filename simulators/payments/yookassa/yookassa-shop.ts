import { randomUUID } from 'node:crypto';
import type { IdempotencyStore } from '../shared/idempotency-store.ts';
import type { NotificationSender } from '../shared/notification-sender.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { isRecord, jsonResponse, readJson } from '../shared/start-simulator-server.ts';
import type { PaymentObject, RefundObject } from './yookassa-objects.ts';
import { createPaymentObject, findCreatePaymentProblem, fromKopecks, toKopecks } from './yookassa-objects.ts';

/** One simulated shop: its payments and refunds, its idempotency keys and its notification sender. */
export type YooKassaShop = {
  shopId: string;
  baseUrl: string;
  payments: Map<string, PaymentObject>;
  refunds: Map<string, RefundObject>;
  idempotency: IdempotencyStore;
  sender: NotificationSender;
  /** API calls still to answer 500 (after doing the work, as when YooKassa times out). */
  failuresLeft: number;
};

export function errorBody(code: string, description: string, parameter?: string) {
  return { type: 'error', id: randomUUID(), code, description, ...(parameter ? { parameter } : {}) };
}

function notify(shop: YooKassaShop, event: string, object: PaymentObject | RefundObject): void {
  const body = JSON.stringify({ type: 'notification', event, object });
  shop.sender.send({ body, headers: { 'content-type': 'application/json' } });
}

/** The payer's outcome on the hosted page: the payment becomes final and YooKassa notifies the shop. */
export function settlePayment(
  shop: YooKassaShop,
  paymentId: string,
  outcome: { isPaid: true } | { isPaid: false; reason: string },
): void {
  const payment = shop.payments.get(paymentId);
  if (!payment || payment.status !== 'pending') return;
  if (outcome.isPaid) {
    Object.assign(payment, {
      status: 'succeeded',
      paid: true,
      refundable: true,
      captured_at: new Date().toISOString(),
    });
    notify(shop, 'payment.succeeded', payment);
  } else {
    Object.assign(payment, {
      status: 'canceled',
      cancellation_details: { party: 'yoo_money', reason: outcome.reason },
    });
    notify(shop, 'payment.canceled', payment);
  }
}

/** Replays the stored answer for a repeated Idempotence-Key; a key reused with another body is refused. */
export function runIdempotent(
  shop: YooKassaShop,
  request: SimulatorRequest,
  operate: () => SimulatorResponse,
): SimulatorResponse {
  const key = request.headers['idempotence-key'];
  if (typeof key !== 'string' || key.length === 0 || key.length > 64) {
    return jsonResponse(
      400,
      errorBody('invalid_request', 'Idempotence-Key header is missing or too long', 'Idempotence-Key'),
    );
  }
  const fingerprint = `${request.url.pathname}\n${request.rawBody.toString('utf8')}`;
  const storeKey = `${shop.shopId}:${key}`;
  const stored = shop.idempotency.find(storeKey);
  if (stored && stored.fingerprint !== fingerprint) {
    return jsonResponse(
      400,
      errorBody('invalid_request', 'Idempotence key duplicated with other data', 'Idempotence-Key'),
    );
  }
  if (stored) return stored.response;
  const response = operate();
  shop.idempotency.save(storeKey, { fingerprint, response });
  return response;
}

export function createPayment(shop: YooKassaShop, request: SimulatorRequest): SimulatorResponse {
  const body = readJson(request);
  const problem = findCreatePaymentProblem(body);
  if (problem || !isRecord(body))
    return jsonResponse(400, errorBody('invalid_request', `Invalid value of ${problem}`, problem));
  const payment = createPaymentObject({ body, baseUrl: shop.baseUrl, isTest: true, nowMs: Date.now() });
  shop.payments.set(payment.id, payment);
  return jsonResponse(200, payment);
}

/** A refund succeeds at once here (SBP refunds take a day at YooKassa); over-refunds are refused. */
export function createRefund(shop: YooKassaShop, request: SimulatorRequest): SimulatorResponse {
  const body = readJson(request);
  const payment =
    isRecord(body) && typeof body.payment_id === 'string' ? shop.payments.get(body.payment_id) : undefined;
  const amount =
    isRecord(body) && isRecord(body.amount) && typeof body.amount.value === 'string' ? body.amount.value : undefined;
  if (!payment || !amount || !/^\d+\.\d{2}$/.test(amount))
    return jsonResponse(400, errorBody('invalid_request', 'Invalid refund request', 'payment_id'));
  const alreadyRefunded = payment.refunded_amount ? toKopecks(payment.refunded_amount.value) : 0;
  if (payment.status !== 'succeeded' || alreadyRefunded + toKopecks(amount) > toKopecks(payment.amount.value)) {
    return jsonResponse(400, errorBody('invalid_request', 'The refund amount exceeds what can be refunded', 'amount'));
  }
  const refund: RefundObject = {
    id: randomUUID(),
    payment_id: payment.id,
    status: 'succeeded',
    amount: { value: amount, currency: 'RUB' },
    created_at: new Date().toISOString(),
  };
  shop.refunds.set(refund.id, refund);
  payment.refunded_amount = { value: fromKopecks(alreadyRefunded + toKopecks(amount)), currency: 'RUB' };
  notify(shop, 'refund.succeeded', refund);
  return jsonResponse(200, refund);
}
