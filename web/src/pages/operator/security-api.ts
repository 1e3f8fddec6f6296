import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type { AuditPage, AuditQuery, SecurityEventList } from '../../../../contract/audit.ts';
import type { TotpEnrolment, TotpRecoveryCodes, TotpStatus } from '../../../../contract/totp.ts';
import type { RequestOptions } from '../../api/api-client.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';

/** The second factor (`/api/me/totp`, `/api/auth/totp`) and the audit log (`/api/operator/audit`). */
export const getTotpStatus = (options: RequestOptions = {}): Promise<TotpStatus> =>
  callEndpoint(apiEndpoints.getTotpStatus, {}, options);

export const startTotpEnrolment = (): Promise<TotpEnrolment> => callEndpoint(apiEndpoints.startTotpEnrolment, {});

export const confirmTotpEnrolment = (code: string): Promise<TotpRecoveryCodes> =>
  callEndpoint(apiEndpoints.confirmTotpEnrolment, { body: { code } });

export const verifyTotp = async (code: string): Promise<void> => {
  await callEndpoint(apiEndpoints.verifyTotp, { body: { code } });
};

export const listAuditEvents = (query: AuditQuery, options: RequestOptions = {}): Promise<AuditPage> =>
  callEndpoint(apiEndpoints.listAuditEvents, { query }, options);

export const listSecurityEvents = (options: RequestOptions = {}): Promise<SecurityEventList> =>
  callEndpoint(apiEndpoints.listSecurityEvents, {}, options);
