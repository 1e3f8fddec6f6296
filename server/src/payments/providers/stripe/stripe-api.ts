import { z } from 'zod';

/**
 * Stripe's wire shapes, as far as the gateway reads them; Stripe field names appear only here and in the converters.
 * @see https://docs.stripe.com/api/checkout/sessions/object
 */

const metadataSchema = z.record(z.string(), z.string());

/** @see https://docs.stripe.com/api/charges/object */
export const stripeChargeSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  amount_refunded: z.number().int().nonnegative(),
  currency: z.string(),
  payment_intent: z.string().nullable(),
  livemode: z.boolean(),
});
export type StripeCharge = z.infer<typeof stripeChargeSchema>;

/** @see https://docs.stripe.com/api/payment_intents/object (with `latest_charge` expanded) */
const stripePaymentIntentSchema = z.object({
  id: z.string().min(1),
  latest_charge: z.union([z.string(), stripeChargeSchema]).nullable(),
});

export const stripeSessionSchema = z.object({
  id: z.string().min(1),
  object: z.literal('checkout.session'),
  status: z.enum(['open', 'complete', 'expired']).nullable(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  amount_total: z.number().int().nonnegative().nullable(),
  currency: z.string().nullable(),
  client_reference_id: z.string().nullable(),
  metadata: metadataSchema.nullable(),
  payment_intent: z.union([z.string(), stripePaymentIntentSchema]).nullable(),
  livemode: z.boolean(),
  url: z.string().nullable(),
});
export type StripeSession = z.infer<typeof stripeSessionSchema>;

export const stripeSessionListSchema = z.object({ object: z.literal('list'), data: z.array(stripeSessionSchema) });

/** @see https://docs.stripe.com/api/disputes/object */
export const stripeDisputeSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  payment_intent: z.string().nullable(),
  status: z.string(),
  livemode: z.boolean(),
});

export const stripeRefundSchema = z.object({ id: z.string().min(1), status: z.string().nullable() });

/** @see https://docs.stripe.com/api/events/object */
export const stripeEventSchema = z.object({
  id: z.string().min(1),
  object: z.literal('event'),
  type: z.string().min(1),
  livemode: z.boolean(),
  data: z.object({ object: z.unknown(), previous_attributes: z.record(z.string(), z.unknown()).optional() }),
});
export type StripeEvent = z.infer<typeof stripeEventSchema>;
