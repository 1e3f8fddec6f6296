import { z } from 'zod';
import { apiKeySchema } from './api-keys.ts';
import { challengeAnswerSchema } from './auth.ts';
import { usageRecordSchema } from './usage.ts';

/** `GET /api/auth/challenge`: an ALTCHA v1 challenge; find `n` ≤ `maxnumber` with SHA-256(`salt` + n) = `challenge`. */
export const signUpChallengeSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string(),
  maxnumber: z.number().int(),
  salt: z.string(),
  signature: z.string(),
  /** False when this gateway does not ask for the proof of work (it may then be left out). */
  is_required: z.boolean(),
});
export type SignUpChallenge = z.infer<typeof signUpChallengeSchema>;

/** A single-use link's token, as it came in the mailed link's `token` query parameter. */
export const linkTokenRequestSchema = z.object({ token: z.string().min(1).max(200) });

/** `POST /api/auth/verify-email`. */
export const verifiedEmailSchema = z.object({
  email: z.string(),
  /** The welcome balance this verification credited (0 when it is credited at another moment, or was before). */
  welcome_credited_usd: z.number(),
});

/** `POST /api/auth/forgot-password`: the answer is the same whether or not the address has an account. */
export const forgotPasswordRequestSchema = z.object({
  email: z.string().max(254),
  altcha: challengeAnswerSchema.optional(),
});

/** `POST /api/auth/reset-password`: every session of the account ends. */
export const resetPasswordRequestSchema = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(1024),
});

/** One message of the operator's outbox: mail kept instead of sent while no SMTP server is configured. */
export const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  created_at: z.string(),
});

/** `GET /api/operator/outbox`. */
export const outboxSchema = z.object({
  /** `outbox`: mail is kept here and not sent; `smtp`: mail is sent (the list holds what was kept before). */
  delivery: z.enum(['smtp', 'outbox']),
  data: z.array(outboxMailSchema),
});
export type Outbox = z.infer<typeof outboxSchema>;

/** `GET /api/operator/outbox` filters. */
export const outboxQuerySchema = z.object({
  to: z.string().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** `GET` and `PUT /api/me/alerts`: the account's mail alerts. */
export const alertSettingsSchema = z.object({
  /** A mail when the balance falls below this many USD (at most 6 decimals), or null for none. */
  low_balance_usd: z.number().min(0).max(1_000_000).nullable(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/**
 * `POST /api/me/delete`. `balance`: what becomes of a remaining balance, required when there is one: `forfeit` (it
 * is given up, never refunded) or `leave_for_refund` (it stays on the deleted account for the operator to refund).
 */
export const deleteAccountRequestSchema = z.object({
  password: z.string().max(1024),
  balance: z.enum(['forfeit', 'leave_for_refund']).optional(),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/** `GET /api/me/export`: what the gateway holds about the account. Keys without secrets; usage without any text. */
export const accountExportSchema = z.object({
  exported_at: z.string(),
  account: z.object({
    id: z.string(),
    email: z.string(),
    role: z.enum(['user', 'admin']),
    status: z.enum(['active', 'blocked']),
    locale: z.string(),
    created_at: z.string(),
    email_verified_at: z.string().nullable(),
    balance_usd: z.number(),
    low_balance_alert_usd: z.number().nullable(),
  }),
  api_keys: z.array(apiKeySchema.extend({ revoked_at: z.string().nullable() })),
  usage: z.array(usageRecordSchema),
  /** True when the account has more usage records than an export holds (the newest are exported). */
  is_usage_truncated: z.boolean(),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
