import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/**
 * OpenAI's own codes for a refused request, which the gateway passes on when an upstream vendor refuses a request
 * with one of them (`toInvalidRequestCode`); some the gateway also raises itself.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export const passedOnVendorCodes = [
  'invalid_value',
  'invalid_type',
  'missing_required_parameter',
  'unsupported_parameter',
  'unsupported_value',
  'integer_above_max_value',
  'integer_below_min_value',
  'string_above_max_length',
  'context_length_exceeded',
  'content_policy_violation',
  'moderation_blocked',
] as const;

/** Every `code` an InvalidRequestError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const invalidRequestCodes = [
  ...passedOnVendorCodes,
  'invalid_json',
  'unknown_parameter',
  'unsupported_media_type',
  'model_not_found',
  'weak_password',
  'incorrect_password',
  'private_upstream_refused',
  'exceeds_balance',
  'no_image_generated',
  'payment_method_unavailable',
  'below_minimum',
  'exceeds_refundable',
  'below_cost',
  'model_is_successor',
  'unknown_family',
  'invalid_link',
  'link_expired',
  'link_used',
  'challenge_required',
  'challenge_failed',
  'disposable_email',
  'limit_above_account',
  'too_many_api_keys',
  'malformed_http_request',
  'missing_content_type',
  'invalid_totp_code',
] as const;
export type InvalidRequestCode = (typeof invalidRequestCodes)[number];

/** The request itself is wrong; `param` names the offending field. */
export class InvalidRequestError extends GatewayError {
  static readonly codes = invalidRequestCodes;
  declare readonly code: InvalidRequestCode;
  readonly status = 400;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<InvalidRequestCode> = {}) {
    super(message, { code: 'invalid_value', ...options });
  }
}

/**
 * The code for a request a vendor refused: the vendor's code when it is one of ours (OpenAI's mostly are, and the
 * gateway's adapters set ours), otherwise the default, so no undocumented vendor code (Gemini's `INVALID_ARGUMENT`,
 * Anthropic's error types) reaches a client.
 */
export function toInvalidRequestCode(vendorCode: string | undefined): InvalidRequestCode {
  return invalidRequestCodes.find((code) => code === vendorCode) ?? 'invalid_value';
}
