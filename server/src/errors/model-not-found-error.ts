import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The requested model is not in the catalogue (or is disabled). */
export class ModelNotFoundError extends GatewayError {
  readonly status = 404;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'model_not_found', ...options });
  }
}
