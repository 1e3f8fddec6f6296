import { randomBytes } from 'node:crypto';
import { createIdempotencyStore } from '../shared/idempotency-store.ts';
import type { DeliveryAttempt } from '../shared/notification-sender.ts';
import { redirectTo, renderHostedPage } from '../shared/render-hosted-page.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { isRecord, jsonResponse, readJson, startSimulatorServer } from '../shared/start-simulator-server.ts';
import type { NotificationFields, NotificationFormat } from './cloudpayments-notifier.ts';
import { createCloudPaymentsNotifier } from './cloudpayments-notifier.ts';

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

type Order = {
  Id: string;
  Number: number;
  Amount: number;
  Currency: string;
  Description: string;
  Email: string | null;
  InvoiceId: string;
  AccountId: string | null;
  Url: string;
  SuccessRedirectUrl: string | null;
  FailRedirectUrl: string | null;
};
type Transaction = {
  TransactionId: number;
  Amount: number;
  Currency: string;
  InvoiceId: string;
  AccountId: string | null;
  Status: 'Completed' | 'Declined';
  Reason: string;
  ReasonCode: number;
  TestMode: true;
  refundedKopecks: number;
};

const envelope = (model: unknown) => jsonResponse(200, { Model: model, Success: true, Message: null });
const refusal = (message: string) => jsonResponse(200, { Success: false, Message: message });
const toKopecks = (amount: number) => Math.round(amount * 100);

/** A CloudPayments stand-in on 127.0.0.1: orders (hosted links), payment find, refunds and signed notifications. */
export async function startCloudPaymentsSimulator(
  options: CloudPaymentsSimulatorOptions,
): Promise<CloudPaymentsSimulator> {
  const orders = new Map<string, Order>();
  const transactions: Transaction[] = [];
  const idempotency = createIdempotencyStore();
  const notifier = createCloudPaymentsNotifier({
    notificationUrl: options.notificationUrl,
    apiSecret: options.apiSecret,
    format: options.notificationFormat ?? 'form',
    retryDelaysMs: options.retryDelaysMs ?? [1000, 5000, 30000],
    isDuplicating: options.isDuplicatingNotifications ?? false,
  });
  const expectedAuthorization = `Basic ${Buffer.from(`${options.publicId}:${options.apiSecret}`).toString('base64')}`;
  let nextTransactionId = 3_000_000_001;
  let baseUrl = '';

  const orderOfInvoice = (invoiceId: string) => [...orders.values()].find((order) => order.InvoiceId === invoiceId);
  const lastTransactionOf = (invoiceId: string) => transactions.filter((entry) => entry.InvoiceId === invoiceId).at(-1);

  function settle(order: Order, isPaid: boolean): void {
    const transaction: Transaction = {
      TransactionId: nextTransactionId++,
      Amount: order.Amount,
      Currency: order.Currency,
      InvoiceId: order.InvoiceId,
      AccountId: order.AccountId,
      Status: isPaid ? 'Completed' : 'Declined',
      Reason: isPaid ? 'Approved' : 'InsufficientFunds',
      ReasonCode: isPaid ? 0 : 5051,
      TestMode: true,
      refundedKopecks: 0,
    };
    transactions.push(transaction);
    const common = {
      TransactionId: transaction.TransactionId,
      Amount: transaction.Amount,
      Currency: transaction.Currency,
      DateTime: new Date().toISOString().slice(0, 19).replace('T', ' '),
      CardFirstSix: '424242',
      CardLastFour: '4242',
      CardType: 'Visa',
      TestMode: true,
      InvoiceId: order.InvoiceId,
      AccountId: order.AccountId ?? '',
      Email: order.Email ?? '',
      OperationType: 'Payment',
    };
    notifier.notify(
      isPaid
        ? { ...common, Status: 'Completed', PaymentAmount: transaction.Amount, PaymentCurrency: transaction.Currency }
        : { ...common, Reason: transaction.Reason, ReasonCode: transaction.ReasonCode },
    );
  }

  function createOrder(body: unknown): SimulatorResponse {
    if (
      !isRecord(body) ||
      typeof body.Amount !== 'number' ||
      !(body.Amount > 0) ||
      typeof body.Description !== 'string'
    )
      return refusal('Amount and Description are required');
    if (!/^\d+(\.\d{1,2})?$/.test(String(body.Amount))) return refusal('Amount has more than two decimals');
    const id = randomBytes(8).toString('hex');
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const order: Order = {
      Id: id,
      Number: orders.size + 1,
      Amount: body.Amount,
      Currency: text(body.Currency) ?? 'RUB',
      Description: body.Description,
      Email: text(body.Email),
      InvoiceId: text(body.InvoiceId) ?? id,
      AccountId: text(body.AccountId),
      Url: `${baseUrl}/d/${id}`,
      SuccessRedirectUrl: text(body.SuccessRedirectUrl),
      FailRedirectUrl: text(body.FailRedirectUrl),
    };
    orders.set(id, order);
    return envelope(order);
  }

  function refund(body: unknown): SimulatorResponse {
    const transaction = isRecord(body)
      ? transactions.find((entry) => entry.TransactionId === body.TransactionId)
      : undefined;
    const amount = isRecord(body) && typeof body.Amount === 'number' ? body.Amount : undefined;
    if (!transaction || transaction.Status !== 'Completed' || amount === undefined)
      return refusal('Transaction not found');
    if (transaction.refundedKopecks + toKopecks(amount) > toKopecks(transaction.Amount))
      return refusal('Refund amount exceeds the payment');
    transaction.refundedKopecks += toKopecks(amount);
    const refundId = nextTransactionId++;
    notifier.notify({
      TransactionId: refundId,
      PaymentTransactionId: transaction.TransactionId,
      Amount: amount,
      Currency: transaction.Currency,
      DateTime: new Date().toISOString().slice(0, 19).replace('T', ' '),
      OperationType: 'Refund',
      InvoiceId: transaction.InvoiceId,
      AccountId: transaction.AccountId ?? '',
      TestMode: true,
    });
    return envelope({ TransactionId: refundId });
  }

  /** CloudPayments treats a repeated `X-Request-ID` as the same operation and answers as the first time. */
  function runIdempotent(request: SimulatorRequest, operate: () => SimulatorResponse): SimulatorResponse {
    const key = request.headers['x-request-id'];
    if (typeof key !== 'string') return operate();
    const stored = idempotency.find(`${request.url.pathname}:${key}`);
    if (stored) return stored.response;
    const response = operate();
    idempotency.save(`${request.url.pathname}:${key}`, { fingerprint: request.rawBody.toString('utf8'), response });
    return response;
  }

  function routeApi(request: SimulatorRequest): SimulatorResponse {
    const body = readJson(request);
    const path = request.url.pathname;
    if (request.method !== 'POST') return { status: 405, contentType: 'text/plain', body: 'POST only' };
    if (path === '/orders/create') return runIdempotent(request, () => createOrder(body));
    if (path === '/payments/refund') return runIdempotent(request, () => refund(body));
    if (path === '/v2/payments/find') {
      const transaction =
        isRecord(body) && typeof body.InvoiceId === 'string' ? lastTransactionOf(body.InvoiceId) : undefined;
      if (!transaction) return refusal('Not found');
      const { refundedKopecks: _refunded, ...model } = transaction;
      return envelope(model);
    }
    return { status: 404, contentType: 'text/plain', body: 'unknown method' };
  }

  function routeOrderPage(request: SimulatorRequest): SimulatorResponse {
    const [, , orderId = '', action] = request.url.pathname.split('/');
    const order = orders.get(orderId);
    if (!order) return { status: 404, contentType: 'text/plain', body: 'no such order' };
    if (request.method === 'POST' && (action === 'pay' || action === 'decline')) {
      settle(order, action === 'pay');
      const back = action === 'pay' ? order.SuccessRedirectUrl : order.FailRedirectUrl;
      return back ? redirectTo(back) : { status: 200, contentType: 'text/plain', body: action };
    }
    return renderHostedPage({
      title: 'CloudPayments (simulator)',
      amountText: `${order.Amount.toFixed(2)} ${order.Currency}`,
      actionPath: `/d/${order.Id}`,
    });
  }

  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    handle(request) {
      if (request.url.pathname.startsWith('/d/')) return routeOrderPage(request);
      if (request.headers.authorization !== expectedAuthorization)
        return { status: 401, contentType: 'text/plain', body: 'Unauthorized' };
      return routeApi(request);
    },
  });
  baseUrl = server.url;
  const settleInvoice = (invoiceId: string, isPaid: boolean) => {
    const order = orderOfInvoice(invoiceId);
    if (order) settle(order, isPaid);
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
    orderCount: () => orders.size,
  };
}
