import { createIdempotencyStore } from '../shared/idempotency-store.ts';
import type { DeliveryAttempt } from '../shared/notification-sender.ts';
import { redirectTo, renderHostedPage } from '../shared/render-hosted-page.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { jsonResponse, startSimulatorServer } from '../shared/start-simulator-server.ts';
import type { StripeEventOptions } from './stripe-event-sender.ts';
import { createStripeEventSender } from './stripe-event-sender.ts';
import { createStripeLedger } from './stripe-ledger.ts';
import { createSession, findCreateSessionProblem, readMetadata, stripeError } from './stripe-objects.ts';

export type StripeSimulatorOptions = {
  notificationUrl: string;
  secretKey: string;
  webhookSecret: string;
  port?: number;
  /** Re-delivery waits after a non-2xx answer (live Stripe keeps trying for three days); short ones for tests. */
  retryDelaysMs?: readonly number[];
  isDuplicatingNotifications?: boolean;
};

export type StripeSimulator = {
  url: string;
  close: () => Promise<void>;
  /** The payer completing Checkout; `isDelayed` leaves the payment unpaid until `settleDelayedPayment`. */
  pay: (sessionId: string, options?: { isDelayed: boolean }) => void;
  settleDelayedPayment: (sessionId: string, isSucceeded: boolean) => void;
  expire: (sessionId: string) => void;
  openDispute: (sessionId: string) => void;
  closeDispute: (sessionId: string, status: 'won' | 'lost') => void;
  /** Sends any event (stale or wrongly signed ones too); returns its id. */
  sendEvent: (type: string, object: unknown, options?: StripeEventOptions) => string;
  resendEvent: (eventId: string) => void;
  holdNotifications: () => void;
  releaseNotifications: (input: { isReversed: boolean }) => void;
  whenNotificationsSettled: () => Promise<void>;
  notificationAttempts: () => readonly DeliveryAttempt[];
  sessionCount: () => number;
};

function fingerprintForm(path: string, form: URLSearchParams): string {
  return `${path}\n${[...form]
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join('&')}`;
}

/** A Stripe stand-in on 127.0.0.1: Checkout Sessions, refunds, the hosted page and signed webhook events. */
export async function startStripeSimulator(options: StripeSimulatorOptions): Promise<StripeSimulator> {
  const idempotency = createIdempotencyStore();
  const events = createStripeEventSender({
    notificationUrl: options.notificationUrl,
    webhookSecret: options.webhookSecret,
    retryDelaysMs: options.retryDelaysMs ?? [1000, 5000, 30000],
    isDuplicating: options.isDuplicatingNotifications ?? false,
  });
  const ledger = createStripeLedger(events);
  let baseUrl = '';

  /** Stripe saves the first answer for a key and replays it; the same key with other parameters is an error. */
  function runIdempotent(
    request: SimulatorRequest,
    form: URLSearchParams,
    operate: () => SimulatorResponse,
  ): SimulatorResponse {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return operate();
    if (key.length > 255)
      return stripeError(400, {
        type: 'invalid_request_error',
        message: 'Idempotency-Key is longer than 255 characters',
      });
    const fingerprint = fingerprintForm(request.url.pathname, form);
    const stored = idempotency.find(key);
    if (!stored) {
      const response = operate();
      idempotency.save(key, { fingerprint, response });
      return response;
    }
    if (stored.fingerprint !== fingerprint) {
      return stripeError(400, {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      });
    }
    return { ...stored.response, headers: { 'idempotent-replayed': 'true' } };
  }

  function createCheckoutSession(form: URLSearchParams): SimulatorResponse {
    const problem = findCreateSessionProblem(form);
    if (problem)
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        message: `Invalid ${problem}`,
        param: problem,
      });
    const session = createSession({ form, baseUrl, nowSeconds: Math.floor(Date.now() / 1000) });
    ledger.addSession(session, readMetadata(form, 'payment_intent_data[metadata]'));
    return jsonResponse(200, session);
  }

  function createRefund(form: URLSearchParams): SimulatorResponse {
    const result = ledger.refund(form.get('payment_intent') ?? '', form.get('amount'));
    if (typeof result === 'string')
      return stripeError(400, {
        type: 'invalid_request_error',
        code: result,
        message: `Refund refused: ${result}`,
        param: 'amount',
      });
    return jsonResponse(200, result);
  }

  function routeApi(request: SimulatorRequest): SimulatorResponse {
    const path = request.url.pathname;
    const form = new URLSearchParams(request.rawBody.toString('utf8'));
    if (request.method === 'POST' && path === '/v1/checkout/sessions')
      return runIdempotent(request, form, () => createCheckoutSession(form));
    if (request.method === 'POST' && path === '/v1/refunds')
      return runIdempotent(request, form, () => createRefund(form));
    if (request.method === 'GET' && path === '/v1/checkout/sessions') {
      const data = ledger.listSessions(request.url.searchParams.get('payment_intent'));
      return jsonResponse(200, { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' });
    }
    if (request.method === 'GET' && path.startsWith('/v1/checkout/sessions/')) {
      const session = ledger.readSession(
        decodeURIComponent(path.slice('/v1/checkout/sessions/'.length)),
        request.url.searchParams.getAll('expand[]'),
      );
      if (session) return jsonResponse(200, session);
    }
    return stripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such resource: ${path}`,
    });
  }

  /** "Pay" completes Checkout; "Decline" stands for a payer who gives up: the session expires. */
  function routeCheckout(request: SimulatorRequest): SimulatorResponse {
    const [, , , sessionId = '', action] = request.url.pathname.split('/');
    const session = ledger.findSession(sessionId);
    if (!session) return { status: 404, contentType: 'text/plain', body: 'no such session' };
    if (request.method === 'POST' && action === 'pay') {
      ledger.pay(session.id, false);
      return redirectTo(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id));
    }
    if (request.method === 'POST' && action === 'decline') {
      ledger.expire(session.id);
      return redirectTo(session.cancel_url ?? session.success_url);
    }
    return renderHostedPage({
      title: 'Stripe Checkout (simulator)',
      amountText: `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`,
      actionPath: `/c/pay/${session.id}`,
    });
  }

  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    handle(request) {
      if (request.url.pathname.startsWith('/c/pay/')) return routeCheckout(request);
      if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
        return stripeError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
      }
      return routeApi(request);
    },
  });
  baseUrl = server.url;
  return {
    url: server.url,
    close: server.close,
    pay: (sessionId, payOptions) => ledger.pay(sessionId, payOptions?.isDelayed ?? false),
    settleDelayedPayment: ledger.settleDelayed,
    expire: ledger.expire,
    openDispute: ledger.openDispute,
    closeDispute: ledger.closeDispute,
    sendEvent: events.sendEvent,
    resendEvent: events.resendEvent,
    holdNotifications: events.hold,
    releaseNotifications: events.release,
    whenNotificationsSettled: events.whenIdle,
    notificationAttempts: events.attempts,
    sessionCount: ledger.sessionCount,
  };
}
