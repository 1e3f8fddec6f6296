import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayError } from '../errors/gateway-error.ts';
import { HeadersTooLargeError } from '../errors/headers-too-large-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { RequestTimeoutError } from '../errors/request-timeout-error.ts';
import { toErrorBodyForPath } from './write-error.ts';

/** What Node's HTTP parser passes with a `clientError`: the bytes it was parsing, when it has them. */
type ClientError = Error & { code?: string | undefined; rawPacket?: unknown };

/**
 * Node answers a request it cannot parse (a bad header line, an unknown method, headers over the size limit, a client
 * too slow) before any route runs; Fastify's default answer is a body of its own shape. This one keeps the status
 * and gives the error body of the API the request line names (OpenAI's, or Anthropic's for `/v1/messages`), then
 * closes the connection, as Node's own answer does.
 * @see https://nodejs.org/api/http.html#event-clienterror
 */
export function answerClientError(input: {
  error: ClientError;
  socket: Socket;
  requestId: string;
  log: FastifyBaseLogger;
}): void {
  const { error, socket, requestId } = input;
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const gatewayError = toClientError(error);
  input.log.debug({ code: error.code, status: gatewayError.status, requestId }, 'client error');
  if (socket.writable) {
    const path = readRequestPath(error.rawPacket);
    const body = JSON.stringify(toErrorBodyForPath(path, requestId)(gatewayError));
    socket.write(
      `HTTP/1.1 ${gatewayError.status} ${STATUS_CODES[gatewayError.status] ?? ''}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function toClientError(error: ClientError): GatewayError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new HeadersTooLargeError('The request line and headers are larger than this server accepts (16 KiB).');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new RequestTimeoutError('The request was not received in time.');
  }
  return new InvalidRequestError('The request is not valid HTTP/1.1.', { code: 'malformed_http_request' });
}

/** The path of the request line at the start of the parser's bytes (`''` when there is none), to pick the shape. */
function readRequestPath(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  const firstLine = rawPacket.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  return /^[!-~]+ (\S+)/.exec(firstLine)?.[1] ?? '';
}
