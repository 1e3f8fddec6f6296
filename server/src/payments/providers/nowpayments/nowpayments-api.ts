import { z } from 'zod';

/** NOWPayments' API root (live mode). */
export const nowPaymentsApiRoot = 'https://api.nowpayments.io';

/** NOWPayments writes amounts as JSON numbers, and in IPNs sometimes as strings. */
const amount = z.union([z.number(), z.string()]);

/** `POST /v1/payment` and `GET /v1/payment/{id}` answer with the payment; the fields the gateway reads. */
export const nowPaymentSchema = z.object({
  payment_id: z.union([z.number().int(), z.string().regex(/^\d{1,20}$/)]),
  payment_status: z.string(),
  pay_address: z.string().min(1),
  pay_amount: amount,
  actually_paid: amount.optional().nullable(),
  pay_currency: z.string(),
  price_amount: amount,
  price_currency: z.string(),
  order_id: z.string().nullable().optional(),
});
export type NowPayment = z.infer<typeof nowPaymentSchema>;

/** The IPN body: the payment as above; only `payment_id` is read from it, the rest comes from the re-fetch. */
export const nowPaymentIpnSchema = z.object({ payment_id: nowPaymentSchema.shape.payment_id }).passthrough();

const decimalPattern = /^(\d{1,12})(?:\.(\d{1,18}))?$/;

/**
 * A crypto amount (10.05, "10.050000") → micro-units (6 decimals), exactly, on the digits; digits past the sixth are
 * dropped (rounded down: never credit what did not arrive). Undefined for anything else.
 */
export function toMicroUnits(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const match = text === undefined ? null : decimalPattern.exec(text);
  if (!match?.[1]) return undefined;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? '').slice(0, 6).padEnd(6, '0'));
}

function numberText(value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  // A number's shortest form is what the provider wrote; tiny values print in exponent form, read through toFixed.
  const text = String(value);
  return text.includes('e') ? value.toFixed(18).replace(/0+$/, '') : text;
}

/**
 * The IPN signature NOWPayments documents: HMAC-SHA512 with the IPN secret over the body's JSON with its keys sorted
 * (recursively, as their examples in other languages do, so a nested `fee` object signs the same), no spaces.
 */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}
