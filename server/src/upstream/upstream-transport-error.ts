/**
 * Why an upstream call failed below HTTP: the deadline passed (`timeout`), the connection could not be made or broke
 * (`connection`), the answer was larger than the caller accepts (`body_too_large`), or the caller's own signal
 * aborted the call (`aborted`).
 */
export type UpstreamTransportErrorKind = 'timeout' | 'connection' | 'body_too_large' | 'aborted';

/** The one error class a transport failure of an upstream call becomes; callers map it to their own error shape. */
export class UpstreamTransportError extends Error {
  readonly kind: UpstreamTransportErrorKind;
  /** undici's error code (`UND_ERR_CONNECT_TIMEOUT`, `ECONNREFUSED`, `private_upstream_refused`…) or our own. */
  readonly code: string;
  constructor(input: { kind: UpstreamTransportErrorKind; code: string; message: string; cause?: unknown }) {
    super(input.message, { cause: input.cause });
    this.name = 'UpstreamTransportError';
    this.kind = input.kind;
    this.code = input.code;
  }
}

/** undici's own timeouts: connect, waiting for the headers, silence between body chunks. */
const timeoutErrorCodes: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Any error thrown by undici while connecting, sending or reading → a `timeout` or `connection` failure. */
export function classifyTransportError(error: unknown): UpstreamTransportError {
  if (error instanceof UpstreamTransportError) return error;
  const code = readErrorCode(error);
  if (code !== undefined && timeoutErrorCodes.has(code)) {
    return new UpstreamTransportError({ kind: 'timeout', code, message: 'The upstream did not answer in time.' });
  }
  return new UpstreamTransportError({
    kind: 'connection',
    code: code ?? 'connection_error',
    message: 'The upstream could not be reached.',
    cause: error,
  });
}

function readErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
