/**
 * The contract between the top-up core (orders, crediting, reconciliation, webhooks) and each payment provider's
 * client. A provider folder (`payments/providers/<id>/`) implements it from the provider's documented wire format;
 * the core never sees a provider field name. Amounts cross this boundary as integer minor units (kopecks, cents).
 */

/** Every payment provider the gateway can use; one folder each under `payments/providers/`. */
export type PaymentProviderId = 'yookassa' | 'stripe' | 'cloudpayments' | 'tron' | 'nowpayments';

/** What a user picks on the top-up panel. */
export type PaymentMethodId = 'card_rub' | 'sbp' | 'yoo_money' | 'card_usd' | 'usdt_trc20';

export type PaymentCurrency = 'RUB' | 'USD';

/** An amount of a fiat currency in its minor unit (kopecks for RUB, cents for USD); always an integer. */
export type FiatAmount = { currency: PaymentCurrency; minorUnits: number };

/** The HTTP call a provider client makes; the upstream HTTP module provides it, tests too. */
export type PaymentHttpRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: string;
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
};
export type PaymentHttpReply = { status: number; headers: Readonly<Record<string, string>>; bodyText: string };
export type PaymentHttp = (request: PaymentHttpRequest) => Promise<PaymentHttpReply>;

export type CreatePaymentInput = {
  /** Our order id: the provider's idempotency key and order reference (metadata, client_reference_id, InvoiceId). */
  orderId: string;
  userId: string;
  method: PaymentMethodId;
  amount: FiatAmount;
  /** Shown on the provider's page and receipt; at most 128 characters. */
  description: string;
  customerEmail: string;
  /** Where the provider's hosted page sends the user back; it carries the order id, never a status. */
  returnUrl: string;
};

/** Where the user goes to pay: the provider's hosted page (no card data touches the gateway). */
export type CreatedPayment = { providerPaymentId: string; confirmationUrl: string };

/** A provider's payment as re-fetched from its API, normalised. */
export type ProviderPaymentStatus = 'pending' | 'succeeded' | 'canceled';
export type ProviderPayment = {
  providerPaymentId: string;
  /** Our order id as the provider stored it (metadata / client_reference_id / InvoiceId); undefined when absent. */
  orderId: string | undefined;
  status: ProviderPaymentStatus;
  amount: FiatAmount;
  /** Total refunded so far, in the payment's minor units. */
  refundedMinorUnits: number;
  /** The provider's test mode (YooKassa `test`, Stripe `livemode: false`, CloudPayments `TestMode`). */
  isTest: boolean;
  /** Why a canceled payment was canceled, in the provider's words (for the operator, never shown raw to users). */
  cancellationReason: string | undefined;
};

/**
 * One verified fact from a notification. `eventKey` is unique per provider per fact (Stripe's event id, or
 * `<payment id>:<status>` where the provider has no event id) and de-duplicates deliveries.
 */
export type PaymentEvent =
  | { kind: 'succeeded'; eventKey: string; payment: ProviderPayment }
  | { kind: 'canceled'; eventKey: string; payment: ProviderPayment }
  /** Money returned to the payer: `amount` is this refund alone (a delta, never a running total). */
  | {
      kind: 'refunded';
      eventKey: string;
      providerPaymentId: string;
      orderId: string | undefined;
      amount: FiatAmount;
      isTest: boolean;
    }
  /** A dispute opened (debit) or closed in the merchant's favour (re-credit). */
  | {
      kind: 'charged_back' | 'chargeback_reversed';
      eventKey: string;
      providerPaymentId: string;
      orderId: string | undefined;
      amount: FiatAmount;
      isTest: boolean;
    }
  /**
   * USDT that reached an order's deposit address (a confirmed TRC20 transfer, or a processor's payment). What was
   * received is what counts: each transfer credits its own amount at the order's locked rate, once per `transferKey`
   * (`<tx id>:<log index>` on chain, the processor's payment id otherwise). `received.isRunningTotal` says the
   * amount is everything received so far for the order (a processor's `actually_paid`), not this transfer alone.
   */
  | {
      kind: 'received';
      eventKey: string;
      providerPaymentId: string;
      orderId: string | undefined;
      transferKey: string;
      txId: string;
      received: { currency: string; microUnits: number; isRunningTotal: boolean };
      isTest: boolean;
    }
  /** A well-formed, authentic notification the core has nothing to do for (an event type we do not act on). */
  | { kind: 'ignored'; eventKey: string; reason: string };

/** A notification as it reached `/webhooks/<provider>`: the raw bytes, before any parsing. */
export type WebhookDelivery = {
  rawBody: Buffer;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  contentType: string | undefined;
};

/** What the gateway answers a provider so it stops (or keeps) re-delivering. */
export type WebhookReply = { status: number; contentType: string; body: string };

export type PaymentProvider = {
  id: PaymentProviderId;
  /** The methods this provider serves and the currency it charges in. */
  methods: readonly PaymentMethodId[];
  currency: PaymentCurrency;
  /** Whether this client talks to the provider's test mode / a simulator (its money is sandbox money). */
  isSandbox: boolean;
  /** `none`: the payments are watched (TRON's chain), so there is no webhook URL to register with anyone. */
  webhooks?: 'none';
  /** `none`: the provider's API cannot refund (crypto), so the operator refunds outside the gateway. */
  refunds?: 'none';
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** Re-fetches a payment from the provider's API (for webhook checks and reconciliation). */
  fetchPayment(providerPaymentId: string): Promise<ProviderPayment>;
  /**
   * For a provider whose money arrives as `received` events (a crypto processor): re-reads the payment from its API
   * as the same events its notifications become, so reconciliation credits a payment whose notification was lost
   * (the event keys match, so a late notification then changes nothing).
   */
  fetchPaymentEvents?: (providerPaymentId: string) => Promise<readonly PaymentEvent[]>;
  /** Refunds `amount` of a payment; `idempotencyKey` makes a retried call one refund. */
  refundPayment(input: {
    providerPaymentId: string;
    amount: FiatAmount;
    idempotencyKey: string;
  }): Promise<{ refundId: string }>;
  /**
   * Verifies a notification (signature, timestamp tolerance, or a re-fetch of the payment where the provider has no
   * signature) and turns it into events. Throws `WebhookRejectedError` for a forged, stale or malformed delivery.
   */
  verifyWebhook(delivery: WebhookDelivery): Promise<readonly PaymentEvent[]>;
  /** The reply the provider expects once the events are handled (or, with `isAccepted: false`, to be retried). */
  replyToWebhook(input: { isAccepted: boolean }): WebhookReply;
};

/** A notification that failed verification: answered 400 (or the provider's reject code), never credited. */
export class WebhookRejectedError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`payment notification rejected: ${reason}`);
    this.name = 'WebhookRejectedError';
    this.reason = reason;
  }
}
