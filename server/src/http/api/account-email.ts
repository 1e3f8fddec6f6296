import { getAlertSettings, setAlertSettings } from '../../accounts/alert-settings.ts';
import { deleteAccount, type DeleteAccountDeps } from '../../accounts/delete-account.ts';
import { exportAccountData } from '../../accounts/export-account-data.ts';
import { revokeBrowserChatKeys, type BrowserChatKeyDeps } from '../../chats/browser-chat-key.ts';
import { clearSessionCookie } from '../session-cookie.ts';
import { createSignUpChallenge, type SignUpChallengeDeps } from '../../accounts/sign-up-challenge.ts';
import { requestPasswordReset, type RequestPasswordResetDeps } from '../../accounts/request-password-reset.ts';
import { resetPassword, type ResetPasswordDeps } from '../../accounts/reset-password.ts';
import { sendVerificationMail, type SendVerificationMailDeps } from '../../accounts/send-verification-mail.ts';
import { verifyEmail, type VerifyEmailDeps } from '../../accounts/verify-email.ts';
import { microsToUsd } from '../../lib/money.ts';
import { listOutbox } from '../../operator/list-outbox-mail.ts';
import {
  sendOperatorPasswordReset,
  type SendOperatorPasswordResetDeps,
} from '../../operator/send-operator-password-reset.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type AccountEmailHandlerDeps = SignUpChallengeDeps &
  RequestPasswordResetDeps &
  ResetPasswordDeps &
  SendVerificationMailDeps &
  VerifyEmailDeps &
  SendOperatorPasswordResetDeps &
  DeleteAccountDeps &
  BrowserChatKeyDeps & { mailDelivery: 'smtp' | 'outbox'; publicBaseUrl: string };

type AccountEmailHandlers = Pick<
  ApiHandlers,
  | 'getSignUpChallenge'
  | 'verifyEmail'
  | 'resendVerification'
  | 'forgotPassword'
  | 'resetPassword'
  | 'sendPasswordReset'
  | 'listOutbox'
  | 'getAlertSettings'
  | 'setAlertSettings'
  | 'exportAccountData'
  | 'deleteAccount'
>;

/** Verification and recovery links, the sign-up challenge, alert settings, and the operator's reset link and outbox. */
export function createAccountEmailHandlers(deps: AccountEmailHandlerDeps): AccountEmailHandlers {
  return {
    getSignUpChallenge: async () => ({
      ...(await createSignUpChallenge(deps)),
      algorithm: 'SHA-256',
      maxnumber: deps.challenge.maxNumber,
      is_required: deps.challenge.isRequired,
    }),
    verifyEmail: async ({ body }) => {
      const verified = await verifyEmail(deps, body);
      return { email: verified.email, welcome_credited_usd: microsToUsd(verified.welcomeCreditedMicros) };
    },
    resendVerification: async ({ session }) => {
      await sendVerificationMail(deps, { userId: session.userId });
    },
    forgotPassword: async ({ request, body }) => {
      await requestPasswordReset(deps, { email: body.email, clientIp: request.ip, altcha: body.altcha });
    },
    resetPassword: async ({ body }) => {
      await resetPassword(deps, body);
    },
    sendPasswordReset: async ({ params }) => {
      await sendOperatorPasswordReset(deps, { userId: params.id });
    },
    listOutbox: async ({ query }) => listOutbox(deps, query),
    getAlertSettings: async ({ session }) => getAlertSettings(deps, session.userId),
    setAlertSettings: async ({ session, body }) => setAlertSettings(deps, { userId: session.userId, settings: body }),
    exportAccountData: async ({ session }) => exportAccountData(deps, session.userId),
    deleteAccount: async ({ request, reply, session, body }) => {
      await deleteAccount(deps, { userId: session.userId, request: body });
      await revokeBrowserChatKeys(deps, session.sessionId);
      clearSessionCookie(reply, {
        isSecure: request.protocol === 'https' || deps.publicBaseUrl.startsWith('https://'),
      });
    },
  };
}
