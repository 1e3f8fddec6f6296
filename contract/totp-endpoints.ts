import { sessionErrors, type ApiEndpoint } from './api-endpoint.ts';
import { totpCodeRequestSchema, totpEnrolmentSchema, totpRecoveryCodesSchema, totpStatusSchema } from './totp.ts';

const code = { name: 'TotpCodeRequest', schema: totpCodeRequestSchema };

/** The operator's second factor (docs/operator.md, "Second factor"). */
export const totpEndpoints = {
  getTotpStatus: {
    method: 'get',
    path: '/api/me/totp',
    summary: 'Whether the second factor is set up, required, and passed by this session',
    auth: 'session',
    response: { status: 200, description: 'The status', json: { name: 'TotpStatus', schema: totpStatusSchema } },
    errors: sessionErrors,
  },
  startTotpEnrolment: {
    method: 'post',
    path: '/api/me/totp/enrolment',
    summary: 'Operators: a new TOTP secret (text, otpauth URI, QR code), confirmed by its first code',
    auth: 'session',
    response: {
      status: 201,
      description: 'The secret to add to an authenticator app',
      json: { name: 'TotpEnrolment', schema: totpEnrolmentSchema },
    },
    errors: { ...sessionErrors, '403': 'Not an operator', '409': 'A second factor is set up already' },
  },
  confirmTotpEnrolment: {
    method: 'post',
    path: '/api/me/totp/confirm',
    summary: 'Confirm the enrolment with a current code; answers the recovery codes, shown once',
    auth: 'session',
    body: code,
    response: {
      status: 200,
      description: 'Enabled; this session counts as verified',
      json: { name: 'TotpRecoveryCodes', schema: totpRecoveryCodesSchema },
    },
    errors: { ...sessionErrors, '400': 'Wrong code', '409': 'No enrolment to confirm', '429': 'Too many attempts' },
  },
  verifyTotp: {
    method: 'post',
    path: '/api/auth/totp',
    summary: 'Pass the second factor for this session with a current code or an unused recovery code',
    auth: 'session',
    body: code,
    response: { status: 204, description: 'Verified' },
    errors: {
      ...sessionErrors,
      '400': 'Wrong or reused code',
      '409': 'No second factor set up',
      '429': 'Too many attempts',
    },
  },
} as const satisfies Record<string, ApiEndpoint>;
