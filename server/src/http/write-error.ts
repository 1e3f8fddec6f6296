import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../openai-api/error-body.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { InternalError } from '../errors/internal-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.ts';
import { UriTooLongError } from '../errors/uri-too-long-error.ts';
import { ServiceUnavailableError } from '../errors/service-unavailable-error.ts';
import { isRedisUnreachable } from '../lib/is-redis-unreachable.ts';
import { isDatabaseUnreachable } from '../lib/is-database-unreachable.ts';
import { convertError } from '../anthropic-api/convert-error.ts';
import { readPastRefusedBody } from './read-past-refused-body.ts';

/** The one place that turns an error into an HTTP response: status, headers and the four-key OpenAI body. */
export function toErrorBody(error: GatewayError): ErrorBody {
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}

/** `/v1/messages` and below speak Anthropic's API, so their errors (unknown methods and paths too) take its shape. */
export function isAnthropicPath(url: string): boolean {
  return /^\/v1\/messages(?:[/?#]|$)/.test(url);
}

/** The error body in the shape of the API at `url`: Anthropic's under `/v1/messages`, OpenAI's everywhere else. */
export function toErrorBodyForPath(url: string, requestId: string): (error: GatewayError) => object {
  return isAnthropicPath(url) ? (error) => convertError(error, requestId) : toErrorBody;
}

/** Maps anything thrown to a GatewayError; framework errors keep their 4xx status, anything else is a 500. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const framework = error as Partial<FastifyError>;
  if (framework.code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE') {
    return new InvalidRequestError(
      'A request with this method must send a body with `Content-Type: application/json`.',
      {
        code: 'missing_content_type',
      },
    );
  }
  if (framework.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new UriTooLongError('A path parameter of the URL is longer than any id this server issues.');
  }
  if (framework.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new PayloadTooLargeError('The request body is larger than this server accepts.');
  }
  if (framework.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new InvalidRequestError('Send the body as JSON with `Content-Type: application/json`.', {
      code: 'unsupported_media_type',
    });
  }
  if (
    framework.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    framework.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error instanceof SyntaxError
  ) {
    return new InvalidRequestError(
      'We could not parse the JSON body of your request. The body must be valid JSON (UTF-8).',
      { code: 'invalid_json' },
    );
  }
  if (isRedisUnreachable(error)) {
    // Holds, rate limits and call slots live in Redis: without it no call can start, and a retry soon may succeed.
    return new ServiceUnavailableError(
      'The credit store (Redis) is unreachable right now; nothing was charged. Please retry in a few seconds.',
      { headers: { 'retry-after': '3' }, cause: error },
    );
  }
  if (isDatabaseUnreachable(error)) {
    // A database restart or failover: the call took nothing (a settlement goes to the journal, not here).
    return new ServiceUnavailableError(
      'The database is unreachable right now; nothing was charged. Please retry in a few seconds.',
      { headers: { 'retry-after': '3' }, cause: error },
    );
  }
  return (
    toFrameworkClientError(framework) ??
    new InternalError('The server had an error while processing your request.', { cause: error })
  );
}

/**
 * Any other Fastify error with a 4xx status (a bad URL, a bad Content-Length) is the client's: the same status where
 * the catalogue has one, else a 400, with Fastify's message (it names the problem, never a server detail).
 */
function toFrameworkClientError(framework: Partial<FastifyError>): GatewayError | undefined {
  const status = framework.statusCode;
  if (typeof framework.code !== 'string' || !framework.code.startsWith('FST_ERR_')) return undefined;
  if (status === undefined || status < 400 || status > 499) return undefined;
  const message = framework.message ?? 'The request is not valid.';
  if (status === 404) return new NotFoundError(message);
  if (status === 413) return new PayloadTooLargeError(message);
  if (status === 414) return new UriTooLongError(message);
  return new InvalidRequestError(message, { code: 'malformed_http_request' });
}

/** `toBody` lets an API with its own error shape (Anthropic's `/v1/messages`) keep the same statuses and headers. */
export function writeError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  toBody: (error: GatewayError) => object = toErrorBodyForPath(request.url, request.id),
): FastifyReply {
  const answer = toErrorAnswer(error, { incoming: request.raw, log: request.log });
  if (answer.isBodyStillArriving) reply.removeHeader('connection');
  // Framework errors (a bad URL) reach here before the hook that sets it.
  reply.header('x-request-id', request.id);
  reply.status(answer.error.status).headers(answer.headers);
  return reply.send(toBody(answer.error));
}

/** `writeError` on node's own response, for the routes served without Fastify (`hot-routes.ts`). */
export function writeErrorResponse(input: {
  incoming: IncomingMessage;
  response: ServerResponse;
  requestId: string;
  log: Pick<FastifyBaseLogger, 'error'>;
  error: unknown;
}): void {
  const { response } = input;
  const answer = toErrorAnswer(input.error, input);
  if (answer.isBodyStillArriving) response.removeHeader('connection');
  const body = JSON.stringify(toErrorBodyForPath(input.incoming.url ?? '', input.requestId)(answer.error));
  response.setHeader('x-request-id', input.requestId);
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(body));
  response.writeHead(answer.error.status).end(body);
}

/**
 * What every error answer shares: the error (logged when it is the server's), its headers, and whether a refused
 * body is still being read (`readPastRefusedBody`).
 */
function toErrorAnswer(
  error: unknown,
  input: { incoming: IncomingMessage; log: Pick<FastifyBaseLogger, 'error'> },
): { error: GatewayError; headers: Record<string, string>; isBodyStillArriving: boolean } {
  const gatewayError = toGatewayError(error);
  if (gatewayError instanceof InternalError) {
    input.log.error({ err: gatewayError.cause ?? gatewayError }, 'request failed');
  }
  const isBodyStillArriving = gatewayError instanceof PayloadTooLargeError && readPastRefusedBody(input.incoming);
  const headers: Record<string, string> = { ...gatewayError.headers };
  if (gatewayError.status >= 500) headers['x-should-retry'] = gatewayError.status === 500 ? 'false' : 'true';
  return { error: gatewayError, headers, isBodyStillArriving };
}
