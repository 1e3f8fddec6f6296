import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { createPaymentHttp } from '../../src/payments/create-payment-http.ts';
import {
  WebhookRejectedError,
  type FiatAmount,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderPaymentStatus,
} from '../../src/payments/payment-provider.ts';

/**
 * A small payment service on loopback and a real `PaymentProvider` client for it, for the top-up core's tests until
 * the concrete providers are merged. Its wire format is its own (JSON, an HMAC-SHA256 signature header); the core
 * sees only the `PaymentProvider` contract, as with every provider.
 */
export type TestPaymentService = {
  url: string;
  payments: Map<
    string,
    {
      id: string;
      orderId: string;
      status: ProviderPaymentStatus;
      amount: FiatAmount;
      refundedMinorUnits: number;
      isTest: boolean;
    }
  >;
  /** When true, every API call answers 503. */
  isDown: boolean;
  /** Builds a signed webhook delivery (`secret` defaults to the service's own). */
  delivery: (
    body: Record<string, unknown>,
    options?: { secret?: string },
  ) => { rawBody: Buffer; headers: Record<string, string>; contentType: string };
  close: () => Promise<void>;
};

const webhookSecret = 'test-webhook-secret';

export async function startTestPaymentService(): Promise<TestPaymentService> {
  let sequence = 0;
  const service: TestPaymentService = {
    url: '',
    close: async () => undefined,
    payments: new Map(),
    isDown: false,
    delivery: (body, options = {}) => {
      const rawBody = Buffer.from(JSON.stringify(body));
      const signature = createHmac('sha256', options.secret ?? webhookSecret)
        .update(rawBody)
        .digest('hex');
      return {
        rawBody,
        headers: { 'x-test-signature': signature, 'content-type': 'application/json' },
        contentType: 'application/json',
      };
    },
  };
  const server = createServer(async (request, response) => {
    const body = await readJson(request);
    const send = (status: number, value: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (service.isDown) return send(503, { error: 'down' });
    const [, resource, id, sub] = (request.url ?? '').split('/');
    if (resource !== 'payments') return send(404, { error: 'not found' });
    if (request.method === 'POST' && id === undefined) {
      sequence += 1;
      const payment = {
        id: `pay_${sequence}`,
        orderId: String(body.order_id),
        status: 'pending' as const,
        amount: body.amount as FiatAmount,
        refundedMinorUnits: 0,
        isTest: body.is_test === true,
      };
      service.payments.set(payment.id, payment);
      return send(200, { id: payment.id, confirmation_url: `https://pay.example/${payment.id}` });
    }
    const payment = service.payments.get(id ?? '');
    if (!payment) return send(404, { error: 'no such payment' });
    if (request.method === 'GET') return send(200, payment);
    if (request.method === 'POST' && sub === 'refunds') {
      payment.refundedMinorUnits += Number(body.minor_units);
      return send(200, { id: `rf_${String(body.idempotency_key)}` });
    }
    return send(405, { error: 'method' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address() as AddressInfo;
  service.url = `http://127.0.0.1:${address.port}`;
  service.close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  return service;
}

/** The client of the test service, as a `PaymentProvider` with the given id and sandbox flag. */
export function createTestPaymentProvider(input: {
  service: TestPaymentService;
  id?: PaymentProvider['id'];
  isSandbox?: boolean;
}): PaymentProvider & { close: () => Promise<void> } {
  const agent = new Agent();
  const http = createPaymentHttp({ dispatcher: agent });
  const isSandbox = input.isSandbox ?? true;
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const reply = await http({
      method,
      url: `${input.service.url}${path}`,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: 5000,
      maxBodyBytes: 100_000,
    });
    if (reply.status !== 200) throw new Error(`test payment service answered HTTP ${reply.status}`);
    return JSON.parse(reply.bodyText) as Record<string, unknown>;
  };
  const fetchPayment = async (providerPaymentId: string): Promise<ProviderPayment> => {
    const payment = await call('GET', `/payments/${providerPaymentId}`);
    return {
      providerPaymentId: String(payment.id),
      orderId: typeof payment.orderId === 'string' ? payment.orderId : undefined,
      status: payment.status as ProviderPaymentStatus,
      amount: payment.amount as FiatAmount,
      refundedMinorUnits: Number(payment.refundedMinorUnits),
      isTest: payment.isTest === true,
      cancellationReason: undefined,
    };
  };
  return {
    id: input.id ?? 'yookassa',
    methods: ['card_rub', 'sbp'],
    currency: 'RUB',
    isSandbox,
    createPayment: async (payment) => {
      const created = await call('POST', '/payments', {
        order_id: payment.orderId,
        amount: payment.amount,
        is_test: isSandbox,
      });
      return { providerPaymentId: String(created.id), confirmationUrl: String(created.confirmation_url) };
    },
    fetchPayment,
    refundPayment: async (refund) => {
      const created = await call('POST', `/payments/${refund.providerPaymentId}/refunds`, {
        minor_units: refund.amount.minorUnits,
        idempotency_key: refund.idempotencyKey,
      });
      return { refundId: String(created.id) };
    },
    verifyWebhook: async (delivery): Promise<readonly PaymentEvent[]> => {
      const expected = createHmac('sha256', webhookSecret).update(delivery.rawBody).digest();
      const given = Buffer.from(delivery.headers['x-test-signature'] ?? '', 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new WebhookRejectedError('bad signature');
      const body = JSON.parse(delivery.rawBody.toString('utf8')) as Record<string, unknown>;
      const eventKey = String(body.event_id);
      const paymentId = String(body.payment_id);
      if (body.type === 'payment.succeeded' || body.type === 'payment.canceled') {
        // Like YooKassa: the notification names the payment; its state is what the API says on a re-fetch.
        const payment = await fetchPayment(paymentId);
        const kind = body.type === 'payment.succeeded' ? 'succeeded' : 'canceled';
        if (payment.status !== kind) throw new WebhookRejectedError('the re-fetched payment disagrees');
        return [{ kind, eventKey, payment }];
      }
      if (body.type === 'refund.succeeded' || body.type === 'dispute.created' || body.type === 'dispute.won') {
        const kind =
          body.type === 'refund.succeeded'
            ? 'refunded'
            : body.type === 'dispute.created'
              ? 'charged_back'
              : 'chargeback_reversed';
        return [
          {
            kind,
            eventKey,
            providerPaymentId: paymentId,
            orderId: undefined,
            amount: body.amount as FiatAmount,
            isTest: body.is_test === true,
          },
        ];
      }
      return [{ kind: 'ignored', eventKey, reason: `type ${String(body.type)}` }];
    },
    replyToWebhook: ({ isAccepted }) =>
      isAccepted
        ? { status: 200, contentType: 'text/plain', body: 'OK' }
        : { status: 400, contentType: 'text/plain', body: 'rejected' },
    close: () => agent.close(),
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}
