import { clipEcho } from '../lib/clip-echo.ts';
import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a ModelNotFoundError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const modelNotFoundCodes = ['model_not_found'] as const;
export type ModelNotFoundCode = (typeof modelNotFoundCodes)[number];

/** The requested model is not in the catalogue (or is disabled). */
export class ModelNotFoundError extends GatewayError {
  static readonly codes = modelNotFoundCodes;
  declare readonly code: ModelNotFoundCode;
  readonly status = 404;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<ModelNotFoundCode> = {}) {
    super(message, { code: 'model_not_found', ...options });
  }
}

/**
 * The 404 for a model the caller cannot use, worded as OpenAI words it (whether the model exists for someone else is
 * not told); `qualifier` narrows it, as " as a text model".
 */
export function modelNotFoundFor(modelId: string, qualifier = ''): ModelNotFoundError {
  return new ModelNotFoundError(
    `The model \`${clipEcho(modelId)}\` does not exist${qualifier} or you do not have access to it.`,
    { param: 'model' },
  );
}

/** The 404 for a model the operator retired: usage history keeps it, callers are told which model replaces it. */
export function modelRetiredError(modelId: string, successorId: string | null): ModelNotFoundError {
  const instead = successorId === null ? 'it is no longer available' : `use \`${successorId}\` instead`;
  return new ModelNotFoundError(`The model \`${modelId}\` has been retired; ${instead}.`, { param: 'model' });
}
