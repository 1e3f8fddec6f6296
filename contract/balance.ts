import { z } from 'zod';

/** One movement of the balance. `kind`: `welcome`, `top_up`, `usage`, `adjustment`, `subscription`, `refund`. */
export const balanceEntrySchema = z.object({
  transaction_id: z.string(),
  kind: z.string(),
  reason: z.string(),
  /** Positive when credited, negative when debited. */
  amount_usd: z.number(),
  created_at: z.string(),
});
export type BalanceEntry = z.infer<typeof balanceEntrySchema>;

/** `GET /api/balance`: the balance, what calls in flight hold, what is available, and the latest movements. */
export const balanceSchema = z.object({
  balance_usd: z.number(),
  held_usd: z.number(),
  available_usd: z.number(),
  entries: z.array(balanceEntrySchema),
});
export type Balance = z.infer<typeof balanceSchema>;
