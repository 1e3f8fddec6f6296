import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** A bug or an unexpected failure; details go to the log with the request id, never to the client. */
export class InternalError extends GatewayError {
  readonly status = 500;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: null, ...options });
  }
}
