import { randomUUID } from 'node:crypto';
import { createIdempotencyStore } from '../shared/idempotency-store.ts';
import { createNotificationSender } from '../shared/notification-sender.ts';
import type { DeliveryAttempt } from '../shared/notification-sender.ts';
import { redirectTo, renderHostedPage } from '../shared/render-hosted-page.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { isRecord, jsonResponse, readJson, startSimulatorServer } from '../shared/start-simulator-server.ts';
import type { PaymentObject, RefundObject } from './yookassa-objects.ts';
import { createPaymentObject, findCreatePaymentProblem, fromKopecks, toKopecks } from './yookassa-objects.ts';

export type YooKassaSimulatorOptions = {
  notificationUrl: string;
  shopId: string;
  secretKey: string;
  port?: number;
  /** Re-delivery waits after a non-200 answer (YooKassa keeps trying for 24 hours); short ones for tests. */
  retryDelaysMs?: readonly number[];
  isDuplicatingNotifications?: boolean;
};

export type YooKassaSimulator = {
  url: string;
  close: () => Promise<void>;
  /** The payer pressing "Pay" or "Decline" on the hosted page. */
  pay: (paymentId: string) => void;
  decline: (paymentId: string, reason?: string) => void;
  /** The next `count` API calls are stored as usual but answered 500, as when YooKassa times out. */
  failNextRequests: (count: number) => void;
  /** Delivers any body as a notification (a forged one, for tests). */
  sendNotification: (body: unknown) => void;
  holdNotifications: () => void;
  releaseNotifications: (input: { isReversed: boolean }) => void;
  whenNotificationsSettled: () => Promise<void>;
  notificationAttempts: () => readonly DeliveryAttempt[];
  paymentCount: () => number;
};

const errorBody = (code: string, description: string, parameter?: string) => ({
  type: 'error',
  id: randomUUID(),
  code,
  description,
  ...(parameter ? { parameter } : {}),
});

/** A YooKassa stand-in on 127.0.0.1: the payments and refunds API, the hosted page and HTTP notifications. */
export async function startYooKassaSimulator(options: YooKassaSimulatorOptions): Promise<YooKassaSimulator> {
  const payments = new Map<string, PaymentObject>();
  const refunds = new Map<string, RefundObject>();
  const idempotency = createIdempotencyStore();
  const sender = createNotificationSender({
    notificationUrl: options.notificationUrl,
    retryDelaysMs: options.retryDelaysMs ?? [1000, 5000, 30000],
    isDuplicating: options.isDuplicatingNotifications ?? false,
  });
  const expectedAuthorization = `Basic ${Buffer.from(`${options.shopId}:${options.secretKey}`).toString('base64')}`;
  let failuresLeft = 0;
  let baseUrl = '';

  const notify = (event: string, object: PaymentObject | RefundObject) =>
    sender.send({
      body: JSON.stringify({ type: 'notification', event, object }),
      headers: { 'content-type': 'application/json' },
    });

  function settle(
    paymentId: string,
    outcome: { isPaid: true } | { isPaid: false; reason: string },
  ): PaymentObject | undefined {
    const payment = payments.get(paymentId);
    if (!payment || payment.status !== 'pending') return undefined;
    if (outcome.isPaid) {
      Object.assign(payment, {
        status: 'succeeded',
        paid: true,
        refundable: true,
        captured_at: new Date().toISOString(),
      });
      notify('payment.succeeded', payment);
    } else {
      Object.assign(payment, {
        status: 'canceled',
        cancellation_details: { party: 'yoo_money', reason: outcome.reason },
      });
      notify('payment.canceled', payment);
    }
    return payment;
  }

  /** Replays the stored answer for a repeated Idempotence-Key; a key reused with another body is refused. */
  function runIdempotent(request: SimulatorRequest, operate: () => SimulatorResponse): SimulatorResponse {
    const key = request.headers['idempotence-key'];
    if (typeof key !== 'string' || key.length === 0 || key.length > 64) {
      return jsonResponse(
        400,
        errorBody('invalid_request', 'Idempotence-Key header is missing or too long', 'Idempotence-Key'),
      );
    }
    const fingerprint = `${request.url.pathname}\n${request.rawBody.toString('utf8')}`;
    const stored = idempotency.find(`${options.shopId}:${key}`);
    const response = stored ? (stored.fingerprint === fingerprint ? stored.response : undefined) : operate();
    if (!response)
      return jsonResponse(
        400,
        errorBody('invalid_request', 'Idempotence key duplicated with other data', 'Idempotence-Key'),
      );
    if (!stored) idempotency.save(`${options.shopId}:${key}`, { fingerprint, response });
    return response;
  }

  function createPayment(request: SimulatorRequest): SimulatorResponse {
    const body = readJson(request);
    const problem = findCreatePaymentProblem(body);
    if (problem || !isRecord(body))
      return jsonResponse(400, errorBody('invalid_request', `Invalid value of ${problem}`, problem));
    const payment = createPaymentObject({ body, baseUrl, isTest: true, nowMs: Date.now() });
    payments.set(payment.id, payment);
    return jsonResponse(200, payment);
  }

  function createRefund(request: SimulatorRequest): SimulatorResponse {
    const body = readJson(request);
    const payment = isRecord(body) && typeof body.payment_id === 'string' ? payments.get(body.payment_id) : undefined;
    const amount =
      isRecord(body) && isRecord(body.amount) && typeof body.amount.value === 'string' ? body.amount.value : undefined;
    if (!payment || !amount || !/^\d+\.\d{2}$/.test(amount))
      return jsonResponse(400, errorBody('invalid_request', 'Invalid refund request', 'payment_id'));
    const alreadyRefunded = payment.refunded_amount ? toKopecks(payment.refunded_amount.value) : 0;
    if (payment.status !== 'succeeded' || alreadyRefunded + toKopecks(amount) > toKopecks(payment.amount.value)) {
      return jsonResponse(
        400,
        errorBody('invalid_request', 'The refund amount exceeds what can be refunded', 'amount'),
      );
    }
    const refund: RefundObject = {
      id: randomUUID(),
      payment_id: payment.id,
      status: 'succeeded',
      amount: { value: amount, currency: 'RUB' },
      created_at: new Date().toISOString(),
    };
    refunds.set(refund.id, refund);
    payment.refunded_amount = { value: fromKopecks(alreadyRefunded + toKopecks(amount)), currency: 'RUB' };
    notify('refund.succeeded', refund);
    return jsonResponse(200, refund);
  }

  function routeApi(request: SimulatorRequest): SimulatorResponse {
    const path = request.url.pathname;
    const readId = (prefix: string) => decodeURIComponent(path.slice(prefix.length));
    if (request.method === 'POST' && path === '/v3/payments')
      return runIdempotent(request, () => createPayment(request));
    if (request.method === 'POST' && path === '/v3/refunds') return runIdempotent(request, () => createRefund(request));
    const found =
      request.method !== 'GET'
        ? undefined
        : path.startsWith('/v3/payments/')
          ? payments.get(readId('/v3/payments/'))
          : path.startsWith('/v3/refunds/')
            ? refunds.get(readId('/v3/refunds/'))
            : undefined;
    return found ? jsonResponse(200, found) : jsonResponse(404, errorBody('not_found', 'Object not found'));
  }

  function routeCheckout(request: SimulatorRequest): SimulatorResponse {
    const [, , paymentId = '', action] = request.url.pathname.split('/');
    const payment = payments.get(paymentId);
    if (!payment) return { status: 404, contentType: 'text/plain', body: 'no such payment' };
    if (request.method === 'POST' && (action === 'pay' || action === 'decline')) {
      settle(payment.id, action === 'pay' ? { isPaid: true } : { isPaid: false, reason: 'general_decline' });
      return redirectTo(payment.confirmation.return_url);
    }
    const sbpLink = payment.payment_method.type === 'sbp' ? `${baseUrl}/checkout/${payment.id}` : undefined;
    return renderHostedPage({
      title: 'YooKassa (simulator)',
      amountText: `${payment.amount.value} ${payment.amount.currency}`,
      actionPath: `/checkout/${payment.id}`,
      returnUrl: payment.confirmation.return_url,
      ...(sbpLink ? { sbpLink } : {}),
    });
  }

  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    handle(request) {
      if (request.url.pathname.startsWith('/checkout/')) return routeCheckout(request);
      if (request.headers.authorization !== expectedAuthorization) {
        return jsonResponse(
          401,
          errorBody('invalid_credentials', 'Basic authentication failed: check shopId and secret key'),
        );
      }
      const response = routeApi(request);
      if (failuresLeft === 0) return response;
      failuresLeft -= 1;
      return jsonResponse(500, errorBody('internal_server_error', 'Internal server error'));
    },
  });
  baseUrl = server.url;
  return {
    url: server.url,
    close: server.close,
    pay: (paymentId) => void settle(paymentId, { isPaid: true }),
    decline: (paymentId, reason = 'insufficient_funds') => void settle(paymentId, { isPaid: false, reason }),
    failNextRequests: (count) => {
      failuresLeft = count;
    },
    sendNotification: (body) =>
      sender.send({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    holdNotifications: sender.hold,
    releaseNotifications: sender.release,
    whenNotificationsSettled: sender.whenIdle,
    notificationAttempts: sender.attempts,
    paymentCount: () => payments.size,
  };
}
