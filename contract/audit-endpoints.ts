import { operatorErrors, sessionErrors, type ApiEndpoint } from './api-endpoint.ts';
import { auditPageSchema, auditQuerySchema, securityEventListSchema } from './audit.ts';

/** The audit log (docs/operator.md, "Audit log"): the operator's search, and each account's own security events. */
export const auditEndpoints = {
  listAuditEvents: {
    method: 'get',
    path: '/api/operator/audit',
    summary: 'The audit log, newest first: every operator action and account security event, with filters',
    auth: 'operator',
    query: auditQuerySchema,
    response: { status: 200, description: 'A page of records', json: { name: 'AuditPage', schema: auditPageSchema } },
    errors: { ...operatorErrors, '400': 'Invalid filter or cursor' },
  },
  listSecurityEvents: {
    method: 'get',
    path: '/api/security-events',
    summary: 'The account’s latest security events: sign-ins, API keys created or revoked, password changes',
    auth: 'session',
    response: {
      status: 200,
      description: 'The latest events, newest first',
      json: { name: 'SecurityEventList', schema: securityEventListSchema },
    },
    errors: sessionErrors,
  },
} as const satisfies Record<string, ApiEndpoint>;
