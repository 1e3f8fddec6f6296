import { operatorErrors, sessionErrors, type ApiEndpoint } from './api-endpoint.ts';
import {
  accountExportSchema,
  alertSettingsSchema,
  deleteAccountRequestSchema,
  forgotPasswordRequestSchema,
  linkTokenRequestSchema,
  outboxQuerySchema,
  outboxSchema,
  resetPasswordRequestSchema,
  signUpChallengeSchema,
  verifiedEmailSchema,
} from './account-email.ts';

const linkErrors = {
  '400': 'The link is unknown (`invalid_link`), expired (`link_expired`) or used before (`link_used`)',
} as const;

/** E-mail verification, password recovery, the sign-up challenge and the operator's outbox (docs/accounts.md). */
export const accountEmailEndpoints = {
  getSignUpChallenge: {
    method: 'get',
    path: '/api/auth/challenge',
    summary: 'A proof-of-work challenge (ALTCHA v1) to solve before sign-up or a password-reset request',
    auth: 'public',
    response: {
      status: 200,
      description: 'The challenge',
      json: { name: 'SignUpChallenge', schema: signUpChallengeSchema },
    },
    errors: {},
  },
  verifyEmail: {
    method: 'post',
    path: '/api/auth/verify-email',
    summary:
      "Use a verification link's token: the address is verified (and the welcome balance credited, if it waits for this)",
    auth: 'public',
    body: { name: 'LinkTokenRequest', schema: linkTokenRequestSchema },
    response: { status: 200, description: 'Verified', json: { name: 'VerifiedEmail', schema: verifiedEmailSchema } },
    errors: linkErrors,
  },
  resendVerification: {
    method: 'post',
    path: '/api/me/verification-mail',
    summary: 'Mail a new verification link to the signed-in account (earlier links stop working)',
    auth: 'session',
    response: { status: 204, description: 'Sent, or nothing to verify' },
    errors: { ...sessionErrors, '429': 'Several links were sent in the last hour' },
  },
  forgotPassword: {
    method: 'post',
    path: '/api/auth/forgot-password',
    summary: 'Mail a password-reset link if an account has this address; the same answer either way',
    auth: 'public',
    body: { name: 'ForgotPasswordRequest', schema: forgotPasswordRequestSchema },
    response: { status: 204, description: 'Accepted (a link is mailed when the address has an active account)' },
    errors: {
      '400': 'Missing (`challenge_required`) or invalid (`challenge_failed`) proof of work',
      '429': 'Too many requests from this address or for this e-mail',
    },
  },
  resetPassword: {
    method: 'post',
    path: '/api/auth/reset-password',
    summary: "Set a new password with a reset link's token; every session of the account ends",
    auth: 'public',
    body: { name: 'ResetPasswordRequest', schema: resetPasswordRequestSchema },
    response: { status: 204, description: 'The password is set; sign in with it' },
    errors: {
      '400': `${linkErrors['400']}, or a weak password (\`weak_password\`)`,
      '403': 'The account is blocked',
    },
  },
  sendPasswordReset: {
    method: 'post',
    path: '/api/operator/users/{id}/password-reset',
    summary: 'Mail the account a password-reset link (the operator never sees or sets the password)',
    auth: 'operator',
    response: { status: 204, description: 'The link is mailed' },
    errors: { ...operatorErrors, '404': 'No such account' },
  },
  getAlertSettings: {
    method: 'get',
    path: '/api/me/alerts',
    summary: "The account's mail alerts (low balance threshold)",
    auth: 'session',
    response: {
      status: 200,
      description: 'The settings',
      json: { name: 'AlertSettings', schema: alertSettingsSchema },
    },
    errors: sessionErrors,
  },
  setAlertSettings: {
    method: 'put',
    path: '/api/me/alerts',
    summary: "Set the account's mail alerts; a new threshold re-arms the low-balance mail",
    auth: 'session',
    body: { name: 'AlertSettings', schema: alertSettingsSchema },
    response: {
      status: 200,
      description: 'The settings',
      json: { name: 'AlertSettings', schema: alertSettingsSchema },
    },
    errors: { ...sessionErrors, '400': 'An amount with more than 6 decimals' },
  },
  exportAccountData: {
    method: 'get',
    path: '/api/me/export',
    summary: 'Everything the gateway holds about the account: the account, its keys (no secrets) and its usage',
    auth: 'session',
    response: { status: 200, description: 'The export', json: { name: 'AccountExport', schema: accountExportSchema } },
    errors: sessionErrors,
  },
  deleteAccount: {
    method: 'post',
    path: '/api/me/delete',
    summary:
      'Delete the account: address and password erased, keys and sessions ended; a balance is forfeited or left for a refund',
    auth: 'session',
    body: { name: 'DeleteAccountRequest', schema: deleteAccountRequestSchema },
    response: { status: 204, description: 'Deleted and signed out' },
    errors: {
      ...sessionErrors,
      '400': 'Wrong password (`incorrect_password`), or an operator account',
      '409':
        'A top-up may still be paid (`payment_in_flight`), or a balance remains and `balance` is not given (`balance_remaining`)',
    },
  },
  listOutbox: {
    method: 'get',
    path: '/api/operator/outbox',
    summary: 'Mail kept instead of sent while no SMTP server is configured, newest first',
    auth: 'operator',
    query: outboxQuerySchema,
    response: { status: 200, description: 'The outbox', json: { name: 'Outbox', schema: outboxSchema } },
    errors: operatorErrors,
  },
} as const satisfies Record<string, ApiEndpoint>;
