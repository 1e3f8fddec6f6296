import {
  confirmTotpEnrolment,
  getTotpStatus,
  startTotpEnrolment,
  verifyTotp,
  type OperatorTotpDeps,
} from '../../accounts/operator-totp.ts';
import { recordSecurityEvent } from '../../audit/record-audit.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type TotpHandlerDeps = { operatorTotp: OperatorTotpDeps };

/** The operator's second factor: status, enrolment with a QR code, confirmation, and the sign-in step. */
export function createTotpHandlers(
  deps: TotpHandlerDeps,
): Pick<ApiHandlers, 'getTotpStatus' | 'startTotpEnrolment' | 'confirmTotpEnrolment' | 'verifyTotp'> {
  const totp = deps.operatorTotp;
  return {
    getTotpStatus: async ({ session }) => getTotpStatus(totp, session),
    startTotpEnrolment: async ({ session }) => startTotpEnrolment(totp, session),
    confirmTotpEnrolment: async ({ request, session, body }) => {
      const codes = await confirmTotpEnrolment(totp, { session, code: body.code });
      await recordSecurityEvent(totp, { accountId: session.userId, action: 'totp_enabled', clientAddress: request.ip });
      return codes;
    },
    verifyTotp: async ({ session, body }) => {
      await verifyTotp(totp, { session, code: body.code });
    },
  };
}
