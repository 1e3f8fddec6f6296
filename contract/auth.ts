import { z } from 'zod';

/** `POST /api/auth/register` and `POST /api/auth/login`: e-mail and password, nothing else. */
export const credentialsSchema = z.object({
  email: z.string().max(254),
  password: z.string().max(1024),
});
export type Credentials = z.infer<typeof credentialsSchema>;

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
});
export type Me = z.infer<typeof meSchema>;

/** `POST /api/me/password`: other sessions of the account are signed out. */
export const changePasswordRequestSchema = z.object({
  current_password: z.string().max(1024),
  new_password: z.string().max(1024),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
