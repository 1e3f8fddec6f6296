/** A reason the gateway (or the CLI) cannot start, with a message written for the operator: printed as it is. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
