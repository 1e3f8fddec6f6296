import { z } from 'zod';

/** `GET /api/me/totp`: the operator's second factor (RFC 6238 TOTP) as it stands for this account and session. */
export const totpStatusSchema = z.object({
  /** A confirmed authenticator is set up. */
  is_enabled: z.boolean(),
  /** The gateway requires a second factor of operators (`REQUIRE_OPERATOR_TOTP`). */
  is_required: z.boolean(),
  /** This session has passed the second factor. */
  is_session_verified: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type TotpStatus = z.infer<typeof totpStatusSchema>;

/** `POST /api/me/totp/enrolment`: a new secret to add to an authenticator app, as text, `otpauth://` URI and QR code. */
export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The URI as a QR code, an SVG image. */
  qr_svg: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

/** A six-digit code from the authenticator, or (to sign in only) a recovery code. */
export const totpCodeRequestSchema = z.object({ code: z.string().trim().min(1).max(32) });
export type TotpCodeRequest = z.infer<typeof totpCodeRequestSchema>;

/** The answer to a confirmed enrolment: recovery codes, each good once, shown this one time. */
export const totpRecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type TotpRecoveryCodes = z.infer<typeof totpRecoveryCodesSchema>;
