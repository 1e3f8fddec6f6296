import { createIdempotencyStore } from '../shared/idempotency-store.ts';
import type { IdempotencyStore } from '../shared/idempotency-store.ts';
import type { DeliveryAttempt } from '../shared/notification-sender.ts';
import { redirectTo, renderHostedPage } from '../shared/render-hosted-page.ts';
import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { jsonResponse, startSimulatorServer } from '../shared/start-simulator-server.ts';
import type { StripeEventOptions } from './stripe-event-sender.ts';
import { createStripeEventSender } from './stripe-event-sender.ts';
import type { StripeLedger } from './stripe-ledger.ts';
import {
  closeDispute,
  createStripeLedger,
  expireSession,
  openDispute,
  paySession,
  readSession,
  refundPaymentIntent,
  settleDelayedPayment,
} from './stripe-ledger.ts';
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

type StripeAccount = { ledger: StripeLedger; idempotency: IdempotencyStore; baseUrl: string };

function fingerprintForm(path: string, form: URLSearchParams): string {
  return `${path}\n${[...form]
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join('&')}`;
}

/** Stripe saves the first answer for a key and replays it; the same key with other parameters is an error. */
function runIdempotent(
  account: StripeAccount,
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
  const stored = account.idempotency.find(key);
  if (!stored) {
    const response = operate();
    account.idempotency.save(key, { fingerprint, response });
    return response;
  }
  if (stored.fingerprint === fingerprint) return { ...stored.response, headers: { 'idempotent-replayed': 'true' } };
  const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
  return stripeError(400, { type: 'idempotency_error', message });
}

function createCheckoutSession(account: StripeAccount, form: URLSearchParams): SimulatorResponse {
  const problem = findCreateSessionProblem(form);
  if (problem)
    return stripeError(400, {
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      message: `Invalid ${problem}`,
      param: problem,
    });
  const session = createSession({ form, baseUrl: account.baseUrl, nowSeconds: Math.floor(Date.now() / 1000) });
  account.ledger.sessions.set(session.id, session);
  account.ledger.intentMetadata.set(session.id, readMetadata(form, 'payment_intent_data[metadata]'));
  return jsonResponse(200, session);
}

function createRefund(account: StripeAccount, form: URLSearchParams): SimulatorResponse {
  const result = refundPaymentIntent(account.ledger, form.get('payment_intent') ?? '', form.get('amount'));
  if (typeof result !== 'string') return jsonResponse(200, result);
  return stripeError(400, {
    type: 'invalid_request_error',
    code: result,
    message: `Refund refused: ${result}`,
    param: 'amount',
  });
}

function routeApi(account: StripeAccount, request: SimulatorRequest): SimulatorResponse {
  const path = request.url.pathname;
  const form = new URLSearchParams(request.rawBody.toString('utf8'));
  if (request.method === 'POST' && path === '/v1/checkout/sessions')
    return runIdempotent(account, request, form, () => createCheckoutSession(account, form));
  if (request.method === 'POST' && path === '/v1/refunds')
    return runIdempotent(account, request, form, () => createRefund(account, form));
  if (request.method === 'GET' && path === '/v1/checkout/sessions') {
    const paymentIntentId = request.url.searchParams.get('payment_intent');
    const data = [...account.ledger.sessions.values()].filter(
      (session) => paymentIntentId === null || session.payment_intent === paymentIntentId,
    );
    return jsonResponse(200, { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' });
  }
  const sessionId = path.startsWith('/v1/checkout/sessions/')
    ? decodeURIComponent(path.slice('/v1/checkout/sessions/'.length))
    : '';
  const session =
    request.method === 'GET'
      ? readSession(account.ledger, sessionId, request.url.searchParams.getAll('expand[]'))
      : undefined;
  if (session) return jsonResponse(200, session);
  return stripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such resource: ${path}`,
  });
}

/** "Pay" completes Checkout; "Decline" stands for a payer who gives up: the session expires. */
function routeCheckout(account: StripeAccount, request: SimulatorRequest): SimulatorResponse {
  const [, , , sessionId = '', action] = request.url.pathname.split('/');
  const session = account.ledger.sessions.get(sessionId);
  if (!session) return { status: 404, contentType: 'text/plain', body: 'no such session' };
  if (request.method === 'POST' && action === 'pay') {
    paySession(account.ledger, session.id, false);
    return redirectTo(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id));
  }
  if (request.method === 'POST' && action === 'decline') {
    expireSession(account.ledger, session.id);
    return redirectTo(session.cancel_url ?? session.success_url);
  }
  const amountText = `${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}`;
  return renderHostedPage({ title: 'Stripe Checkout (simulator)', amountText, actionPath: `/c/pay/${session.id}` });
}

/** A Stripe stand-in on 127.0.0.1: Checkout Sessions, refunds, the hosted page and signed webhook events. */
export async function startStripeSimulator(options: StripeSimulatorOptions): Promise<StripeSimulator> {
  const events = createStripeEventSender({
    notificationUrl: options.notificationUrl,
    webhookSecret: options.webhookSecret,
    retryDelaysMs: options.retryDelaysMs ?? [1000, 5000, 30000],
    isDuplicating: options.isDuplicatingNotifications ?? false,
  });
  const account: StripeAccount = {
    ledger: createStripeLedger(events),
    idempotency: createIdempotencyStore(),
    baseUrl: '',
  };
  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    handle(request) {
      if (request.url.pathname.startsWith('/c/pay/')) return routeCheckout(account, request);
      if (request.headers.authorization === `Bearer ${options.secretKey}`) return routeApi(account, request);
      return stripeError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
    },
  });
  account.baseUrl = server.url;
  const { ledger } = account;
  return {
    url: server.url,
    close: server.close,
    pay: (sessionId, payOptions) => paySession(ledger, sessionId, payOptions?.isDelayed ?? false),
    settleDelayedPayment: (sessionId, isSucceeded) => settleDelayedPayment(ledger, sessionId, isSucceeded),
    expire: (sessionId) => expireSession(ledger, sessionId),
    openDispute: (sessionId) => openDispute(ledger, sessionId),
    closeDispute: (sessionId, status) => closeDispute(ledger, sessionId, status),
    sendEvent: events.sendEvent,
    resendEvent: events.resendEvent,
    holdNotifications: events.hold,
    releaseNotifications: events.release,
    whenNotificationsSettled: events.whenIdle,
    notificationAttempts: events.attempts,
    sessionCount: () => ledger.sessions.size,
  };
}
