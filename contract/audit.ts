import { z } from 'zod';
import { usageFilterQuerySchema } from './usage.ts';

/**
 * One record of the audit log. `before` and `after` are the JSON texts of the target's state around an operator's
 * change (null where there was none, such as before a creation); security events carry neither.
 */
export const auditEventSchema = z.object({
  id: z.string(),
  occurred_at: z.string(),
  /** `operator`: a change made by an operator; `security`: a sign-in, key or password event of an account. */
  category: z.enum(['operator', 'security']),
  action: z.string(),
  actor: z.object({ user_id: z.string().nullable(), label: z.string() }),
  target: z.object({ kind: z.string(), id: z.string().nullable() }),
  account_id: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  client_address: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/**
 * `GET /api/operator/audit`: newest first. `actor` matches an actor's user id or any part of their e-mail; `from`
 * inclusive, `to` exclusive (bare dates are UTC days).
 */
export const auditQuerySchema = usageFilterQuerySchema.pick({ from: true, to: true }).extend({
  category: z.enum(['operator', 'security']).optional(),
  action: z.string().min(1).max(100).optional(),
  actor: z.string().min(1).max(200).optional(),
  target_kind: z.string().min(1).max(100).optional(),
  target_id: z.string().min(1).max(200).optional(),
  account_id: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().max(200).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditPageSchema = z.object({ data: z.array(auditEventSchema), next_cursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** An account's own security event, as its dashboard shows it. */
export const securityEventSchema = z.object({
  id: z.string(),
  occurred_at: z.string(),
  action: z.string(),
  client_address: z.string().nullable(),
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;

export const securityEventListSchema = z.object({ data: z.array(securityEventSchema) });
export type SecurityEventList = z.infer<typeof securityEventListSchema>;
