import { createIdempotencyStore } from '../shared/idempotency-store.ts';
import type { DeliveryAttempt } from '../shared/notification-sender.ts';
import { redirectTo, renderHostedPage } from '../shared/render-hosted-page.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { readJson, startSimulatorServer } from '../shared/start-simulator-server.ts';
import type { NotificationFields, NotificationFormat } from './cloudpayments-notifier.ts';
import { createCloudPaymentsNotifier } from './cloudpayments-notifier.ts';
import type { CloudPaymentsSite } from './cloudpayments-site.ts';
import { createOrder, findPayment, refund, runIdempotent, settleOrder } from './cloudpayments-site.ts';

export type CloudPaymentsSimulatorOptions = {
  notificationUrl: string;
  publicId: string;
  apiSecret: string;
  port?: number;
  /** How the site's notification settings ask for them: form-encoded (the default) or JSON. */
  notificationFormat?: NotificationFormat;
  retryDelaysMs?: readonly number[];
  isDuplicatingNotifications?: boolean;
};

export type CloudPaymentsSimulator = {
  url: string;
  close: () => Promise<void>;
  /** The payer paying, or being declined, on the order page of this InvoiceId. */
  pay: (invoiceId: string) => void;
  decline: (invoiceId: string) => void;
  sendNotification: (fields: NotificationFields, options?: { signingSecret?: string }) => void;
  holdNotifications: () => void;
  releaseNotifications: (input: { isReversed: boolean }) => void;
  whenNotificationsSettled: () => Promise<void>;
  notificationAttempts: () => readonly DeliveryAttempt[];
  orderCount: () => number;
};

function routeApi(site: CloudPaymentsSite, request: SimulatorRequest): SimulatorResponse {
  const body = readJson(request);
  const path = request.url.pathname;
  if (request.method !== 'POST') return { status: 405, contentType: 'text/plain', body: 'POST only' };
  if (path === '/orders/create') return runIdempotent(site, request, () => createOrder(site, body));
  if (path === '/payments/refund') return runIdempotent(site, request, () => refund(site, body));
  if (path === '/v2/payments/find') return findPayment(site, body);
  return { status: 404, contentType: 'text/plain', body: 'unknown method' };
}

function routeOrderPage(site: CloudPaymentsSite, request: SimulatorRequest): SimulatorResponse {
  const [, , orderId = '', action] = request.url.pathname.split('/');
  const order = site.orders.get(orderId);
  if (!order) return { status: 404, contentType: 'text/plain', body: 'no such order' };
  if (request.method === 'POST' && (action === 'pay' || action === 'decline')) {
    settleOrder(site, order, action === 'pay');
    const back = action === 'pay' ? order.SuccessRedirectUrl : order.FailRedirectUrl;
    return back ? redirectTo(back) : { status: 200, contentType: 'text/plain', body: action };
  }
  return renderHostedPage({
    title: 'CloudPayments (simulator)',
    amountText: `${order.Amount.toFixed(2)} ${order.Currency}`,
    actionPath: `/d/${order.Id}`,
  });
}

/** A CloudPayments stand-in on 127.0.0.1: orders (hosted links), payment find, refunds and signed notifications. */
export async function startCloudPaymentsSimulator(
  options: CloudPaymentsSimulatorOptions,
): Promise<CloudPaymentsSimulator> {
  const notifier = createCloudPaymentsNotifier({
    notificationUrl: options.notificationUrl,
    apiSecret: options.apiSecret,
    format: options.notificationFormat ?? 'form',
    retryDelaysMs: options.retryDelaysMs ?? [1000, 5000, 30000],
    isDuplicating: options.isDuplicatingNotifications ?? false,
  });
  const site: CloudPaymentsSite = {
    baseUrl: '',
    orders: new Map(),
    transactions: [],
    refundedKopecks: new Map(),
    idempotency: createIdempotencyStore(),
    notifier,
    nextTransactionId: 3_000_000_001,
  };
  const expectedAuthorization = `Basic ${Buffer.from(`${options.publicId}:${options.apiSecret}`).toString('base64')}`;
  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    handle(request) {
      if (request.url.pathname.startsWith('/d/')) return routeOrderPage(site, request);
      if (request.headers.authorization === expectedAuthorization) return routeApi(site, request);
      return { status: 401, contentType: 'text/plain', body: 'Unauthorized' };
    },
  });
  site.baseUrl = server.url;
  const settleInvoice = (invoiceId: string, isPaid: boolean) => {
    const order = [...site.orders.values()].find((entry) => entry.InvoiceId === invoiceId);
    if (order) settleOrder(site, order, isPaid);
  };
  return {
    url: server.url,
    close: server.close,
    pay: (invoiceId) => settleInvoice(invoiceId, true),
    decline: (invoiceId) => settleInvoice(invoiceId, false),
    sendNotification: notifier.notify,
    holdNotifications: notifier.hold,
    releaseNotifications: notifier.release,
    whenNotificationsSettled: notifier.whenIdle,
    notificationAttempts: notifier.attempts,
    orderCount: () => site.orders.size,
  };
}
