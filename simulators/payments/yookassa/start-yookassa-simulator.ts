import { createIdempotencyStore } from '../shared/idempotency-store.ts';
import { createNotificationSender } from '../shared/notification-sender.ts';
import type { DeliveryAttempt } from '../shared/notification-sender.ts';
import { redirectTo, renderHostedPage } from '../shared/render-hosted-page.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { jsonResponse, startSimulatorServer } from '../shared/start-simulator-server.ts';
import type { YooKassaShop } from './yookassa-shop.ts';
import { createPayment, createRefund, errorBody, runIdempotent, settlePayment } from './yookassa-shop.ts';

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
  /** The next `count` API calls are carried out as usual but answered 500, as when YooKassa times out. */
  failNextRequests: (count: number) => void;
  /** Delivers any body as a notification (a forged one, for tests). */
  sendNotification: (body: unknown) => void;
  holdNotifications: () => void;
  releaseNotifications: (input: { isReversed: boolean }) => void;
  whenNotificationsSettled: () => Promise<void>;
  notificationAttempts: () => readonly DeliveryAttempt[];
  paymentCount: () => number;
};

function routeApi(shop: YooKassaShop, request: SimulatorRequest): SimulatorResponse {
  const path = request.url.pathname;
  if (request.method === 'POST' && path === '/v3/payments')
    return runIdempotent(shop, request, () => createPayment(shop, request));
  if (request.method === 'POST' && path === '/v3/refunds')
    return runIdempotent(shop, request, () => createRefund(shop, request));
  const [, , collection, id = ''] = path.split('/');
  const objects = collection === 'payments' ? shop.payments : collection === 'refunds' ? shop.refunds : undefined;
  const found = request.method === 'GET' ? objects?.get(decodeURIComponent(id)) : undefined;
  return found ? jsonResponse(200, found) : jsonResponse(404, errorBody('not_found', 'Object not found'));
}

/** The hosted page; for SBP it shows a payment link where the bank's QR code would be. */
function routeCheckout(shop: YooKassaShop, request: SimulatorRequest): SimulatorResponse {
  const [, , paymentId = '', action] = request.url.pathname.split('/');
  const payment = shop.payments.get(paymentId);
  if (!payment) return { status: 404, contentType: 'text/plain', body: 'no such payment' };
  if (request.method === 'POST' && (action === 'pay' || action === 'decline')) {
    settlePayment(shop, payment.id, action === 'pay' ? { isPaid: true } : { isPaid: false, reason: 'general_decline' });
    return redirectTo(payment.confirmation.return_url);
  }
  const sbpLink = payment.payment_method.type === 'sbp' ? { sbpLink: `${shop.baseUrl}/checkout/${payment.id}` } : {};
  const amountText = `${payment.amount.value} ${payment.amount.currency}`;
  return renderHostedPage({
    title: 'YooKassa (simulator)',
    amountText,
    actionPath: `/checkout/${payment.id}`,
    returnUrl: payment.confirmation.return_url,
    ...sbpLink,
  });
}

function handle(shop: YooKassaShop, expectedAuthorization: string, request: SimulatorRequest): SimulatorResponse {
  if (request.url.pathname.startsWith('/checkout/')) return routeCheckout(shop, request);
  if (request.headers.authorization !== expectedAuthorization) {
    return jsonResponse(
      401,
      errorBody('invalid_credentials', 'Basic authentication failed: check shopId and secret key'),
    );
  }
  const response = routeApi(shop, request);
  if (shop.failuresLeft === 0) return response;
  shop.failuresLeft -= 1;
  return jsonResponse(500, errorBody('internal_server_error', 'Internal server error'));
}

/** A YooKassa stand-in on 127.0.0.1: the payments and refunds API, the hosted page and HTTP notifications. */
export async function startYooKassaSimulator(options: YooKassaSimulatorOptions): Promise<YooKassaSimulator> {
  const sender = createNotificationSender({
    notificationUrl: options.notificationUrl,
    retryDelaysMs: options.retryDelaysMs ?? [1000, 5000, 30000],
    isDuplicating: options.isDuplicatingNotifications ?? false,
  });
  const shop: YooKassaShop = {
    shopId: options.shopId,
    baseUrl: '',
    payments: new Map(),
    refunds: new Map(),
    idempotency: createIdempotencyStore(),
    sender,
    failuresLeft: 0,
  };
  const expectedAuthorization = `Basic ${Buffer.from(`${options.shopId}:${options.secretKey}`).toString('base64')}`;
  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    handle: (request) => handle(shop, expectedAuthorization, request),
  });
  shop.baseUrl = server.url;
  return {
    url: server.url,
    close: server.close,
    pay: (paymentId) => settlePayment(shop, paymentId, { isPaid: true }),
    decline: (paymentId, reason = 'insufficient_funds') => settlePayment(shop, paymentId, { isPaid: false, reason }),
    failNextRequests: (count) => {
      shop.failuresLeft = count;
    },
    sendNotification: (body) =>
      sender.send({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    holdNotifications: sender.hold,
    releaseNotifications: sender.release,
    whenNotificationsSettled: sender.whenIdle,
    notificationAttempts: sender.attempts,
    paymentCount: () => shop.payments.size,
  };
}
