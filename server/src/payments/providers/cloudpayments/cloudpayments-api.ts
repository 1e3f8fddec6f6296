import { z } from 'zod';

/**
 * CloudPayments' wire shapes, as far as the gateway reads them; its field names appear only here and in the
 * converters. @see https://developers.cloudpayments.ru/ (API section)
 */

/** Every API answer: `{"Success":bool,"Message":string|null,"Model":…}`. */
export const cloudPaymentsEnvelopeSchema = z.object({
  Success: z.boolean(),
  Message: z.string().nullable(),
  Model: z.unknown().optional(),
});

/** @see https://developers.cloudpayments.ru/ ("create an invoice") */
export const cloudPaymentsOrderSchema = z.object({ Id: z.string().min(1), Url: z.string().min(1) });

/** The transaction model of `/v2/payments/find` (amounts are JSON numbers). @see https://developers.cloudpayments.ru/ ("payment status check") */
export const cloudPaymentsTransactionSchema = z.object({
  TransactionId: z.number().int(),
  Amount: z.number(),
  Currency: z.string(),
  InvoiceId: z.string().nullish(),
  Status: z.string(),
  Reason: z.string().nullish(),
  TestMode: z.boolean(),
});
export type CloudPaymentsTransaction = z.infer<typeof cloudPaymentsTransactionSchema>;

export const cloudPaymentsRefundSchema = z.object({ TransactionId: z.number().int() });

/** A form field is text; the same field in a JSON notification may be a number or a boolean. */
const scalarSchema = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The fields of a Pay, Fail or Refund notification the gateway reads, form-encoded or JSON alike.
 * @see https://developers.cloudpayments.ru/ (notifications section)
 */
export const cloudPaymentsNotificationSchema = z.object({
  TransactionId: scalarSchema,
  Amount: scalarSchema,
  Currency: z.string().optional(),
  InvoiceId: z.string().optional(),
  OperationType: z.string().optional(),
  Status: z.string().optional(),
  Reason: z.string().optional(),
  ReasonCode: scalarSchema.optional(),
  PaymentTransactionId: scalarSchema.optional(),
  TestMode: scalarSchema.optional(),
});
export type CloudPaymentsNotification = z.infer<typeof cloudPaymentsNotificationSchema>;
