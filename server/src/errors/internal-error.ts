import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** A bug or an unexpected failure; details go to the log with the request id, never to the client. */
export class InternalError extends GatewayError {
  /** No code: a client can do nothing with the kind of bug it met. */
  static readonly codes = [] as const;
  declare readonly code: null;
  readonly status = 500;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions<null> = {}) {
    super(message, { code: null, ...options });
  }
}
