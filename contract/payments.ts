import { z } from 'zod';

export const paymentMethodSchema = z.enum(['card_rub', 'sbp', 'yoo_money', 'card_usd', 'usdt_trc20']);
export const paymentCurrencySchema = z.enum(['RUB', 'USD']);
export const topUpStatusSchema = z.enum([
  'created',
  'pending',
  'succeeded',
  'canceled',
  'expired',
  'partially_refunded',
  'refunded',
  'charged_back',
  'partially_paid',
]);

/**
 * `POST /api/top-ups/quote` and `POST /api/top-ups`: a method and an amount in the currency's minor unit (kopecks
 * for RUB, cents for USD), so no decimal is ever parsed from a float.
 */
export const topUpRequestSchema = z.object({
  method: paymentMethodSchema,
  currency: paymentCurrencySchema,
  amount_minor: z.number().int().min(1).max(10_000_000_000),
});
export type TopUpRequest = z.infer<typeof topUpRequestSchema>;

/** What the user is shown before paying: "you pay 1,000.00 RUB, your balance gets 10.52 USD". */
export const topUpQuoteSchema = z.object({
  method: paymentMethodSchema,
  provider: z.string(),
  currency: paymentCurrencySchema,
  amount_minor: z.number().int(),
  /** The amount as written for people, e.g. `1,000.00`. */
  amount_display: z.string(),
  /** USD credited to the balance (rounded down to the micro-dollar); `credit_micros` is exact. */
  credit_usd: z.number(),
  credit_micros: z.number().int(),
  /** Units of `currency` per 1 USD with the markup applied, as a decimal string (`95.050563`); `1` for USD. */
  rate: z.string(),
  /** `cbr:<date>` (the Central Bank of Russia's rate of that day), `fixed` (the operator's rate) or `usd`. */
  rate_source: z.string(),
  markup_percent: z.number(),
  minimum_minor: z.number().int(),
  /** Until when an order created now keeps this quote. */
  expires_at: z.string(),
  /** True when the provider is a simulator or in its test mode: no real money moves. */
  is_sandbox: z.boolean(),
  summary: z.string(),
});
export type TopUpQuoteView = z.infer<typeof topUpQuoteSchema>;

/** Where and how much USDT (TRC20) a crypto order asks for, and how far its payment has come. */
export const cryptoDepositSchema = z.object({
  network: z.literal('TRC20'),
  token: z.literal('USDT'),
  address: z.string(),
  /** The exact amount asked, as written for people (`10.5`), and in micro-USDT. */
  amount: z.string(),
  amount_micro: z.number().int(),
  received_micro: z.number().int(),
  /** waiting → seen (on chain, not yet confirmed) → partially_credited / credited. */
  stage: z.enum(['waiting', 'seen', 'partially_credited', 'credited']),
  seen_tx_id: z.string().nullable(),
});
export type CryptoDepositView = z.infer<typeof cryptoDepositSchema>;

/** A top-up order as its owner sees it. */
export const topUpOrderSchema = z.object({
  id: z.string(),
  status: topUpStatusSchema,
  method: z.string(),
  provider: z.string(),
  currency: z.string(),
  amount_minor: z.number().int(),
  credit_usd: z.number(),
  rate: z.string(),
  rate_source: z.string(),
  /** The provider's hosted payment page; null once the order is no longer waiting. */
  confirmation_url: z.string().nullable(),
  is_sandbox: z.boolean(),
  is_paid_after_expiry: z.boolean(),
  refunded_usd: z.number(),
  charged_back_usd: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string(),
  /** For a USDT order: the deposit address and amount; absent for card and wallet orders. */
  crypto_deposit: cryptoDepositSchema.optional(),
});
export type TopUpOrderView = z.infer<typeof topUpOrderSchema>;

/** `GET /api/top-ups/methods`: the methods this gateway can take now, each with the provider that serves it. */
export const topUpMethodListSchema = z.object({
  data: z.array(z.object({ method: paymentMethodSchema, provider: z.string(), is_sandbox: z.boolean() })),
});
export type TopUpMethodList = z.infer<typeof topUpMethodListSchema>;

/**
 * `POST /api/top-ups/{id}/sandbox-transfer`, payment sandbox mode only: the simulator plays the payer of a USDT
 * order. `send_exact` / `send_smaller` (half) pay the order's address; `send_look_alike` sends a token named USDT
 * from another contract (direct watching only); `confirm` solidifies a transfer sent earlier (direct watching only).
 */
export const sandboxTransferRequestSchema = z.object({
  action: z.enum(['send_exact', 'send_smaller', 'send_look_alike', 'confirm']),
  transaction_id: z.string().min(1).max(100).optional(),
});
export type SandboxTransferRequest = z.infer<typeof sandboxTransferRequestSchema>;
export const sandboxTransferSchema = z.object({
  /** The simulated transaction, for a later `confirm`; null when the processor simulator pays at once. */
  transaction_id: z.string().nullable(),
});
export type SandboxTransfer = z.infer<typeof sandboxTransferSchema>;

export const createdTopUpSchema = z.object({ order: topUpOrderSchema, quote: topUpQuoteSchema });
export type CreatedTopUp = z.infer<typeof createdTopUpSchema>;

export const topUpOrderListSchema = z.object({ data: z.array(topUpOrderSchema), has_more: z.boolean() });
export type TopUpOrderList = z.infer<typeof topUpOrderListSchema>;

/** `GET /api/top-ups` and the operator's list: newest first; `before` is the id of the last order of the previous page. */
export const topUpListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.string().min(1).max(100).optional(),
});

/** `GET /api/operator/payments`: each filter optional; `from`/`to` are ISO dates or times (from inclusive, to exclusive). */
export const operatorPaymentQuerySchema = topUpListQuerySchema.extend({
  provider: z.enum(['yookassa', 'stripe', 'cloudpayments', 'tron', 'nowpayments']).optional(),
  method: paymentMethodSchema.optional(),
  status: topUpStatusSchema.optional(),
  user_id: z.string().min(1).max(100).optional(),
  from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
});
export type OperatorPaymentQuery = z.infer<typeof operatorPaymentQuerySchema>;

/** An order as the operator sees it: the owner, the provider's payment id, why it needs a look, its transitions. */
export const operatorPaymentSchema = topUpOrderSchema.extend({
  user_id: z.string(),
  provider_payment_id: z.string().nullable(),
  review_reason: z.string().nullable(),
  transitions: z.array(
    z.object({ from: topUpStatusSchema.nullable(), to: topUpStatusSchema, cause: z.string(), at: z.string() }),
  ),
  /** For a USDT order watched on chain: the child index of its address under the operator's xpub (m/…/0/index). */
  derivation_index: z.number().int().nullable().optional(),
  /** For a USDT order: each credited transfer, its transaction id linked to a block explorer. */
  crypto_transfers: z
    .array(
      z.object({
        tx_id: z.string(),
        explorer_url: z.string().nullable(),
        amount_micro: z.number().int(),
        credited_usd: z.number(),
        is_late: z.boolean(),
        credited_at: z.string(),
      }),
    )
    .optional(),
});
export type OperatorPayment = z.infer<typeof operatorPaymentSchema>;

export const operatorPaymentListSchema = z.object({
  data: z.array(operatorPaymentSchema.omit({ transitions: true })),
  has_more: z.boolean(),
});
export type OperatorPaymentList = z.infer<typeof operatorPaymentListSchema>;

/** `POST /api/operator/payments/{id}/refund`: `amount_minor` defaults to everything not yet returned. */
export const refundTopUpRequestSchema = z.object({
  amount_minor: z.number().int().min(1).optional(),
  reason: z.string().trim().min(3).max(500),
  /** Makes a retried request one refund; a new one is made when absent. */
  idempotency_key: z.string().min(1).max(100).optional(),
});
export type RefundTopUpRequest = z.infer<typeof refundTopUpRequestSchema>;

/** `POST /api/operator/payments/{id}/mark-paid`: a payment found by hand; the reason goes into the ledger entry. */
export const markTopUpPaidRequestSchema = z.object({ reason: z.string().trim().min(3).max(500) });
export type MarkTopUpPaidRequest = z.infer<typeof markTopUpPaidRequestSchema>;

/** `GET /api/operator/payment-webhooks`: the address to register with each running provider, and what it serves. */
export const paymentWebhookListSchema = z.object({
  data: z.array(
    z.object({
      provider: z.string(),
      url: z.string(),
      methods: z.array(paymentMethodSchema),
      /** The provider is a simulator (sandbox mode): nothing to register. */
      is_sandbox: z.boolean(),
    }),
  ),
});
export type PaymentWebhookList = z.infer<typeof paymentWebhookListSchema>;
