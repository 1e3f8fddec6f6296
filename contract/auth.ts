import { z } from 'zod';

/** `POST /api/auth/register` and `POST /api/auth/login`: e-mail and password, nothing else. */
export const credentialsSchema = z.object({
  email: z.string().max(254),
  password: z.string().max(1024),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/**
 * A solved ALTCHA challenge (protocol v1, from `GET /api/auth/challenge`): the number found and the challenge's own
 * fields, sent back unchanged.
 */
export const challengeAnswerSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().max(256),
  number: z.number().int().min(0),
  salt: z.string().max(512),
  signature: z.string().max(256),
});

/** `POST /api/auth/register`: the credentials, the language of the account's mail, and the solved challenge. */
export const registerRequestSchema = credentialsSchema.extend({
  locale: z.enum(['en', 'ru']).optional(),
  altcha: challengeAnswerSchema.optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/**
 * The signed-in account (`GET /api/me`, and the answer to register and login). Amounts are USD numbers (exact
 * micro-dollar amounts). `available_usd` is the balance less credit held for calls in flight. Send `csrf_token` back
 * in the `x-csrf-token` header on every state-changing request.
 */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  balance_usd: z.number(),
  available_usd: z.number(),
  created_at: z.string(),
  csrf_token: z.string(),
  /** True while the account has had only this one session: the answer to its sign-up or its first sign-in. */
  is_first_session: z.boolean(),
  /** False until the link mailed at sign-up is used. */
  email_verified: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;

/** `POST /api/me/password`: other sessions of the account are signed out. */
export const changePasswordRequestSchema = z.object({
  current_password: z.string().max(1024),
  new_password: z.string().max(1024),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
