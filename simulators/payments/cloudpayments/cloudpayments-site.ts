import { randomBytes } from 'node:crypto';
import type { IdempotencyStore } from '../shared/idempotency-store.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { isRecord, jsonResponse } from '../shared/start-simulator-server.ts';
import type { CloudPaymentsNotifier } from './cloudpayments-notifier.ts';

/** An order (hosted payment link) and a transaction, as CloudPayments' API shows them. */
export type Order = {
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
};

/** One simulated site: its orders, transactions (with what was refunded of each), keys and notifier. */
export type CloudPaymentsSite = {
  baseUrl: string;
  orders: Map<string, Order>;
  transactions: Transaction[];
  refundedKopecks: Map<number, number>;
  idempotency: IdempotencyStore;
  notifier: CloudPaymentsNotifier;
  nextTransactionId: number;
};

export const envelope = (model: unknown) => jsonResponse(200, { Model: model, Success: true, Message: null });
export const refusal = (message: string) => jsonResponse(200, { Success: false, Message: message });
const toKopecks = (amount: number) => Math.round(amount * 100);
const notificationTime = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

/** The payer pays (Pay notification) or is declined (Fail notification) on an order's page. */
export function settleOrder(site: CloudPaymentsSite, order: Order, isPaid: boolean): void {
  const transaction: Transaction = {
    TransactionId: site.nextTransactionId++,
    Amount: order.Amount,
    Currency: order.Currency,
    InvoiceId: order.InvoiceId,
    AccountId: order.AccountId,
    Status: isPaid ? 'Completed' : 'Declined',
    Reason: isPaid ? 'Approved' : 'InsufficientFunds',
    ReasonCode: isPaid ? 0 : 5051,
    TestMode: true,
  };
  site.transactions.push(transaction);
  const common = {
    TransactionId: transaction.TransactionId,
    Amount: transaction.Amount,
    Currency: transaction.Currency,
    DateTime: notificationTime(),
    CardFirstSix: '424242',
    CardLastFour: '4242',
    CardType: 'Visa',
    TestMode: true,
    InvoiceId: order.InvoiceId,
    AccountId: order.AccountId ?? '',
    Email: order.Email ?? '',
    OperationType: 'Payment',
  };
  site.notifier.notify(
    isPaid
      ? { ...common, Status: 'Completed', PaymentAmount: transaction.Amount, PaymentCurrency: transaction.Currency }
      : { ...common, Reason: transaction.Reason, ReasonCode: transaction.ReasonCode },
  );
}

export function createOrder(site: CloudPaymentsSite, body: unknown): SimulatorResponse {
  if (!isRecord(body) || typeof body.Amount !== 'number' || !(body.Amount > 0) || typeof body.Description !== 'string')
    return refusal('Amount and Description are required');
  if (!/^\d+(\.\d{1,2})?$/.test(String(body.Amount))) return refusal('Amount has more than two decimals');
  const id = randomBytes(8).toString('hex');
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const order: Order = {
    Id: id,
    Number: site.orders.size + 1,
    Amount: body.Amount,
    Currency: text(body.Currency) ?? 'RUB',
    Description: body.Description,
    Email: text(body.Email),
    InvoiceId: text(body.InvoiceId) ?? id,
    AccountId: text(body.AccountId),
    Url: `${site.baseUrl}/d/${id}`,
    SuccessRedirectUrl: text(body.SuccessRedirectUrl),
    FailRedirectUrl: text(body.FailRedirectUrl),
  };
  site.orders.set(id, order);
  return envelope(order);
}

/** The latest transaction of an invoice, as `/v2/payments/find` answers; "Not found" before the payer has tried. */
export function findPayment(site: CloudPaymentsSite, body: unknown): SimulatorResponse {
  const invoiceId = isRecord(body) && typeof body.InvoiceId === 'string' ? body.InvoiceId : undefined;
  const transaction = site.transactions.filter((entry) => entry.InvoiceId === invoiceId).at(-1);
  return transaction ? envelope(transaction) : refusal('Not found');
}

export function refund(site: CloudPaymentsSite, body: unknown): SimulatorResponse {
  const transaction = isRecord(body)
    ? site.transactions.find((entry) => entry.TransactionId === body.TransactionId)
    : undefined;
  const amount = isRecord(body) && typeof body.Amount === 'number' ? body.Amount : undefined;
  if (!transaction || transaction.Status !== 'Completed' || amount === undefined)
    return refusal('Transaction not found');
  const refunded = site.refundedKopecks.get(transaction.TransactionId) ?? 0;
  if (refunded + toKopecks(amount) > toKopecks(transaction.Amount)) return refusal('Refund amount exceeds the payment');
  site.refundedKopecks.set(transaction.TransactionId, refunded + toKopecks(amount));
  const refundId = site.nextTransactionId++;
  site.notifier.notify({
    TransactionId: refundId,
    PaymentTransactionId: transaction.TransactionId,
    Amount: amount,
    Currency: transaction.Currency,
    DateTime: notificationTime(),
    OperationType: 'Refund',
    InvoiceId: transaction.InvoiceId,
    AccountId: transaction.AccountId ?? '',
    TestMode: true,
  });
  return envelope({ TransactionId: refundId });
}

/** CloudPayments treats a repeated `X-Request-ID` as the same operation and answers as the first time. */
export function runIdempotent(
  site: CloudPaymentsSite,
  request: SimulatorRequest,
  operate: () => SimulatorResponse,
): SimulatorResponse {
  const key = request.headers['x-request-id'];
  if (typeof key !== 'string') return operate();
  const storeKey = `${request.url.pathname}:${key}`;
  const stored = site.idempotency.find(storeKey);
  if (stored) return stored.response;
  const response = operate();
  site.idempotency.save(storeKey, { fingerprint: request.rawBody.toString('utf8'), response });
  return response;
}
