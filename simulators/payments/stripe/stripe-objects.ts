import { randomBytes } from 'node:crypto';

/**
 * Stripe's objects as the simulator keeps them, written from the documented wire format
 * (https://docs.stripe.com/api/checkout/sessions/object, /api/charges/object, /api/disputes/object); independent of
 * the gateway's own schemas.
 */
export type Charge = {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  currency: string;
  payment_intent: string;
  metadata: Record<string, string>;
  livemode: false;
  status: 'succeeded';
};
export type PaymentIntent = {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'succeeded' | 'processing' | 'requires_payment_method';
  metadata: Record<string, string>;
  latest_charge: string | null;
  livemode: false;
};
export type Session = {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  livemode: false;
  created: number;
  expires_at: number;
};
export type Dispute = {
  id: string;
  object: 'dispute';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: string;
  reason: string;
  livemode: false;
};

export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** `metadata[order_id]=…` style fields → `{ order_id: … }` for one bracketed prefix. */
export function readMetadata(form: URLSearchParams, prefix: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of form) {
    if (name.startsWith(`${prefix}[`) && name.endsWith(']')) metadata[name.slice(prefix.length + 1, -1)] = value;
  }
  return metadata;
}

/** The parameter Stripe would name in its invalid_request_error, or undefined when the create is acceptable. */
export function findCreateSessionProblem(form: URLSearchParams): string | undefined {
  if (form.get('mode') !== 'payment') return 'mode';
  if (!form.get('line_items[0][price_data][currency]')) return 'line_items[0][price_data][currency]';
  const unitAmount = form.get('line_items[0][price_data][unit_amount]') ?? '';
  // Stripe's minimum charge in USD is $0.50.
  if (!/^\d+$/.test(unitAmount) || Number(unitAmount) < 50) return 'line_items[0][price_data][unit_amount]';
  if (!form.get('line_items[0][price_data][product_data][name]'))
    return 'line_items[0][price_data][product_data][name]';
  if (!/^[1-9]\d*$/.test(form.get('line_items[0][quantity]') ?? '')) return 'line_items[0][quantity]';
  if (!form.get('success_url')) return 'success_url';
  return undefined;
}

export function createSession(input: { form: URLSearchParams; baseUrl: string; nowSeconds: number }): Session {
  const id = stripeId('cs_test');
  const amount =
    Number(input.form.get('line_items[0][price_data][unit_amount]')) *
    Number(input.form.get('line_items[0][quantity]'));
  return {
    id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'open',
    payment_status: 'unpaid',
    amount_total: amount,
    amount_subtotal: amount,
    currency: (input.form.get('line_items[0][price_data][currency]') ?? '').toLowerCase(),
    client_reference_id: input.form.get('client_reference_id'),
    customer_email: input.form.get('customer_email'),
    metadata: readMetadata(input.form, 'metadata'),
    payment_intent: null,
    success_url: input.form.get('success_url') ?? '',
    cancel_url: input.form.get('cancel_url'),
    url: `${input.baseUrl}/c/pay/${id}`,
    livemode: false,
    created: input.nowSeconds,
    // Sessions expire after 24 hours unless told otherwise.
    expires_at: input.nowSeconds + 24 * 60 * 60,
  };
}

export function stripeError(status: number, error: { type: string; message: string; code?: string; param?: string }) {
  return { status, contentType: 'application/json', body: JSON.stringify({ error }) };
}
