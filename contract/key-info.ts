import { z } from 'zod';

/**
 * `GET /v1/key` (and `/v1/auth/key`), OpenRouter-compatible: the calling key's spend cap (`limit`), its spend
 * (`usage`) and what remains, in USD; null when the key has no cap.
 */
export const keyInfoSchema = z.object({
  data: z.object({
    label: z.string(),
    limit: z.number().nullable(),
    usage: z.number(),
    limit_remaining: z.number().nullable(),
    is_free_tier: z.literal(false),
    expires_at: z.string().nullable(),
    rate_limit: z.object({ requests: z.number().int(), interval: z.literal('1m') }),
  }),
});
export type KeyInfo = z.infer<typeof keyInfoSchema>;

/**
 * `GET /v1/credits`, OpenRouter-compatible, in USD: `total_credits` is everything credited to the account (welcome
 * balance, top-ups, adjustments, refunds), `total_usage` everything spent (calls and subscriptions). Their
 * difference is the balance.
 */
export const creditsSchema = z.object({
  data: z.object({ total_credits: z.number(), total_usage: z.number() }),
});
export type Credits = z.infer<typeof creditsSchema>;
