import { z } from 'zod';

/**
 * YooKassa's wire shapes, as far as the gateway reads them; YooKassa field names appear only here and in the
 * converters. @see https://yookassa.ru/developers/api#payment_object
 */

export const yooKassaAmountSchema = z.object({ value: z.string(), currency: z.string() });
export type YooKassaAmount = z.infer<typeof yooKassaAmountSchema>;

export const yooKassaPaymentSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']),
  paid: z.boolean(),
  amount: yooKassaAmountSchema,
  confirmation: z.object({ type: z.string(), confirmation_url: z.string().optional() }).optional(),
  metadata: z.record(z.string(), z.string()).nullish(),
  refunded_amount: yooKassaAmountSchema.optional(),
  cancellation_details: z.object({ party: z.string(), reason: z.string() }).optional(),
  test: z.boolean(),
});
export type YooKassaPayment = z.infer<typeof yooKassaPaymentSchema>;

/** @see https://yookassa.ru/developers/api#refund_object */
export const yooKassaRefundSchema = z.object({
  id: z.string().min(1),
  payment_id: z.string().min(1),
  status: z.enum(['pending', 'succeeded', 'canceled']),
  amount: yooKassaAmountSchema,
});
export type YooKassaRefund = z.infer<typeof yooKassaRefundSchema>;

/**
 * A notification: `{"type":"notification","event":…,"object":{…}}`. Only the object's id is trusted enough to
 * re-fetch; the rest of it is compared with what the API answers. @see https://yookassa.ru/developers/using-api/webhooks
 */
export const yooKassaNotificationSchema = z.object({
  type: z.literal('notification'),
  event: z.string().min(1),
  object: z.looseObject({ id: z.string().min(1) }),
});
export type YooKassaNotification = z.infer<typeof yooKassaNotificationSchema>;

/** The body of `POST /v3/payments`. @see https://yookassa.ru/developers/api#create_payment */
export type YooKassaCreatePaymentBody = {
  amount: YooKassaAmount;
  capture: true;
  confirmation: { type: 'redirect'; return_url: string };
  payment_method_data: { type: 'bank_card' | 'sbp' | 'yoo_money' };
  description: string;
  metadata: { order_id: string; user_id: string };
  receipt: {
    customer: { email: string };
    items: [
      {
        description: string;
        quantity: string;
        amount: YooKassaAmount;
        vat_code: number;
        payment_mode: 'full_payment';
        payment_subject: 'service';
      },
    ];
  };
};
