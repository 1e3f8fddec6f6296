import { createHmac, randomInt } from 'node:crypto';
import { createNotificationSender, type DeliveryAttempt } from '../shared/notification-sender.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { isRecord, jsonResponse, readJson, startSimulatorServer } from '../shared/start-simulator-server.ts';

export type NowPaymentsSimulatorOptions = {
  apiKey: string;
  ipnSecret: string;
  port?: number;
  retryDelaysMs?: readonly number[];
  isDuplicatingNotifications?: boolean;
  /** A fixed deposit address (TRON base58) for every payment; else one made up per payment. */
  payAddress?: string;
};

export type NowPaymentsSimulator = {
  url: string;
  close: () => Promise<void>;
  /** The payer sends `amount` USDT (decimal text) to the payment's address: partially_paid or finished, and an IPN. */
  pay: (paymentId: string, amount: string) => void;
  /** The payment's time ran out unpaid: expired, and an IPN. */
  expire: (paymentId: string) => void;
  /** Sends an IPN for the payment as it stands, signed with `signingSecret` (a forgery when it is not ours). */
  sendIpn: (paymentId: string, options?: { signingSecret?: string; override?: Record<string, unknown> }) => void;
  whenNotificationsSettled: () => Promise<void>;
  notificationAttempts: () => readonly DeliveryAttempt[];
  paymentIds: () => string[];
};

type SimulatedPayment = {
  payment_id: number;
  payment_status: string;
  pay_address: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  pay_currency: string;
  order_id: string;
  order_description: string;
  ipn_callback_url: string;
  created_at: string;
  updated_at: string;
};

const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * NOWPayments' payment API on 127.0.0.1 as far as the gateway uses it (`POST /v1/payment` for `usdttrc20` at 1 USDT
 * per USD, `GET /v1/payment/{id}`, `x-api-key`), and its IPNs: the payment as JSON, signed with HMAC-SHA512 of the
 * recursively key-sorted JSON in `x-nowpayments-sig`, re-sent on a non-2xx answer and, if asked, duplicated.
 */
export async function startNowPaymentsSimulator(options: NowPaymentsSimulatorOptions): Promise<NowPaymentsSimulator> {
  const payments = new Map<string, SimulatedPayment>();
  const senders = new Map<string, ReturnType<typeof createNotificationSender>>();
  const senderFor = (url: string) => {
    const existing = senders.get(url);
    if (existing) return existing;
    const created = createNotificationSender({
      notificationUrl: url,
      retryDelaysMs: options.retryDelaysMs ?? [50, 200, 800],
      isDuplicating: options.isDuplicatingNotifications ?? false,
    });
    senders.set(url, created);
    return created;
  };
  const sendIpn = (payment: SimulatedPayment, signingSecret = options.ipnSecret, override = {}) => {
    const body = { ...ipnBody(payment), ...override };
    const signature = createHmac('sha512', signingSecret)
      .update(JSON.stringify(sortKeys(body)))
      .digest('hex');
    senderFor(payment.ipn_callback_url).send({
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-nowpayments-sig': signature },
    });
  };
  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    handle: (request) =>
      request.url.pathname.startsWith('/_simulator/')
        ? routeControl(request, { pay, expire: (id) => expire(must(id)) })
        : route({ request, payments, options }),
  });
  function must(paymentId: string): SimulatedPayment {
    const payment = payments.get(paymentId);
    if (!payment) throw new Error(`no simulated payment ${paymentId}`);
    return payment;
  }
  function pay(paymentId: string, amount: string): void {
    const payment = must(paymentId);
    payment.actually_paid = Math.round((payment.actually_paid + Number(amount)) * 1e6) / 1e6;
    payment.payment_status = payment.actually_paid >= payment.pay_amount ? 'finished' : 'partially_paid';
    payment.updated_at = new Date().toISOString();
    sendIpn(payment);
  }
  function expire(payment: SimulatedPayment): void {
    payment.payment_status = 'expired';
    sendIpn(payment);
  }
  return {
    url: server.url,
    close: server.close,
    pay,
    expire: (paymentId) => expire(must(paymentId)),
    sendIpn: (paymentId, ipnOptions = {}) => sendIpn(must(paymentId), ipnOptions.signingSecret, ipnOptions.override),
    whenNotificationsSettled: async () => {
      await Promise.all([...senders.values()].map((one) => one.whenIdle()));
    },
    notificationAttempts: () => [...senders.values()].flatMap((one) => one.attempts()),
    paymentIds: () => [...payments.keys()],
  };
}

/** POST /_simulator/payments/{id}/pay {amount} and /_simulator/payments/{id}/expire: the payer's side. */
function routeControl(
  request: SimulatorRequest,
  actions: { pay: (id: string, amount: string) => void; expire: (id: string) => void },
): SimulatorResponse {
  const [, , resource, id = '', action] = request.url.pathname.split('/');
  const body = readJson(request);
  const amount = isRecord(body) && typeof body['amount'] === 'string' ? body['amount'] : undefined;
  try {
    if (request.method === 'POST' && resource === 'payments' && action === 'pay' && amount !== undefined) {
      actions.pay(id, amount);
      return jsonResponse(200, { payment_id: id });
    }
    if (request.method === 'POST' && resource === 'payments' && action === 'expire') {
      actions.expire(id);
      return jsonResponse(200, { payment_id: id });
    }
  } catch (error) {
    return jsonResponse(404, { error: error instanceof Error ? error.message : 'no such payment' });
  }
  return jsonResponse(404, { error: 'unknown control route' });
}

function route(input: {
  request: SimulatorRequest;
  payments: Map<string, SimulatedPayment>;
  options: NowPaymentsSimulatorOptions;
}): SimulatorResponse {
  const { request, payments, options } = input;
  if (request.headers['x-api-key'] !== options.apiKey) {
    return jsonResponse(403, { status: false, statusCode: 403, code: 'INVALID_API_KEY', message: 'Invalid api key' });
  }
  const path = request.url.pathname;
  if (request.method === 'POST' && path === '/v1/payment') return createPayment(payments, readJson(request), options);
  const match = /^\/v1\/payment\/(\d+)$/.exec(path);
  const payment = match && request.method === 'GET' ? payments.get(match[1] ?? '') : undefined;
  if (payment) return jsonResponse(200, ipnBody(payment));
  return jsonResponse(404, { status: false, statusCode: 404, code: 'NOT_FOUND', message: 'Payment not found' });
}

function createPayment(
  payments: Map<string, SimulatedPayment>,
  body: unknown,
  options: NowPaymentsSimulatorOptions,
): SimulatorResponse {
  const fields = isRecord(body) ? body : {};
  const price = fields['price_amount'];
  const ipnUrl = fields['ipn_callback_url'];
  if (
    typeof price !== 'number' ||
    !(price > 0) ||
    fields['pay_currency'] !== 'usdttrc20' ||
    typeof ipnUrl !== 'string'
  ) {
    return jsonResponse(400, { status: false, statusCode: 400, code: 'INVALID_REQUEST_PARAMS', message: 'bad params' });
  }
  const now = new Date().toISOString();
  const payment: SimulatedPayment = {
    payment_id: randomInt(1_000_000_000, 9_999_999_999),
    payment_status: 'waiting',
    pay_address: options.payAddress ?? `T${Array.from({ length: 33 }, () => base58[randomInt(58)]).join('')}`,
    price_amount: price,
    price_currency: String(fields['price_currency'] ?? 'usd'),
    pay_amount: price,
    actually_paid: 0,
    pay_currency: 'usdttrc20',
    order_id: String(fields['order_id'] ?? ''),
    order_description: String(fields['order_description'] ?? ''),
    ipn_callback_url: ipnUrl,
    created_at: now,
    updated_at: now,
  };
  payments.set(String(payment.payment_id), payment);
  return jsonResponse(201, { ...ipnBody(payment), ipn_callback_url: ipnUrl });
}

function ipnBody(payment: SimulatedPayment) {
  return {
    payment_id: payment.payment_id,
    payment_status: payment.payment_status,
    pay_address: payment.pay_address,
    price_amount: payment.price_amount,
    price_currency: payment.price_currency,
    pay_amount: payment.pay_amount,
    actually_paid: payment.actually_paid,
    pay_currency: payment.pay_currency,
    order_id: payment.order_id,
    order_description: payment.order_description,
    purchase_id: String(payment.payment_id + 1),
    outcome_amount: payment.actually_paid,
    outcome_currency: 'usdttrc20',
    fee: { currency: 'usdttrc20', depositFee: 0, withdrawalFee: 0, serviceFee: 0 },
    created_at: payment.created_at,
    updated_at: payment.updated_at,
  };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
