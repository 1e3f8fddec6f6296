import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../openai-api/error-body.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { InternalError } from '../errors/internal-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.ts';
import { readPastRefusedBody } from './read-past-refused-body.ts';

/** The one place that turns an error into an HTTP response: status, headers and the four-key OpenAI body. */
export function toErrorBody(error: GatewayError): ErrorBody {
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}

/** Maps anything thrown to a GatewayError; framework parse errors become 400/413, the rest 500. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const framework = error as Partial<FastifyError>;
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
  return new InternalError('The server had an error while processing your request.', { cause: error });
}

/** `toBody` lets an API with its own error shape (Anthropic's `/v1/messages`) keep the same statuses and headers. */
export function writeError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  toBody: (error: GatewayError) => object = toErrorBody,
): FastifyReply {
  const gatewayError = toGatewayError(error);
  if (gatewayError instanceof InternalError) {
    request.log.error({ err: gatewayError.cause ?? gatewayError }, 'request failed');
  }
  if (gatewayError instanceof PayloadTooLargeError) readPastRefusedBody(request, reply);
  reply.status(gatewayError.status).headers(gatewayError.headers);
  if (gatewayError.status >= 500) reply.header('x-should-retry', gatewayError.status === 500 ? 'false' : 'true');
  return reply.send(toBody(gatewayError));
}
