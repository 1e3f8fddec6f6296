import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorCodes } from 'fastify';
import { parseUtf8Json } from './utf8-json-body-parser.ts';

/** A media type's `type/subtype` (RFC 9110 §8.3.1): tokens on both sides of the slash. */
const mediaTypePattern = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+$/;

/**
 * The body of a request served on node:http (`hot-routes.ts`), read and parsed as Fastify's content-type parsers
 * read it for its own routes, so a client sees the same answers on both: JSON (`parseUtf8Json`) for
 * `application/json`, a string for `text/plain`, no body when none was sent without a type, and Fastify's own errors
 * (which `toGatewayError` maps) for anything else, a body over `limitBytes` or one shorter or longer than its
 * Content-Length. A body that could not be read or parsed closes the connection after the answer, as Fastify's does:
 * the client may still be sending it.
 */
export async function readRequestBody(input: {
  incoming: IncomingMessage;
  response: ServerResponse;
  limitBytes: number;
}): Promise<unknown> {
  const { headers } = input.incoming;
  const contentType = headers['content-type'];
  if (contentType === undefined) {
    const contentLength = headers['content-length'];
    const hasNoBody =
      headers['transfer-encoding'] === undefined && (contentLength === undefined || contentLength === '0');
    if (hasNoBody) return undefined;
    throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE();
  }
  const mediaType = readMediaType(contentType);
  if (mediaType !== 'application/json' && mediaType !== 'text/plain') {
    throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE();
  }
  try {
    const bytes = await readBytes(input.incoming, input.limitBytes);
    return mediaType === 'application/json' ? parseUtf8Json(bytes) : bytes.toString('utf8');
  } catch (error) {
    input.response.setHeader('connection', 'close');
    throw error;
  }
}

function readMediaType(contentType: string): string | undefined {
  const separator = contentType.indexOf(';');
  const mediaType = (separator === -1 ? contentType : contentType.slice(0, separator)).trim().toLowerCase();
  return mediaTypePattern.test(mediaType) ? mediaType : undefined;
}

function readBytes(incoming: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const contentLength = Number(incoming.headers['content-length']);
  if (contentLength > limitBytes) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let byteCount = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      byteCount += chunk.length;
      if (byteCount > limitBytes) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      if (!Number.isNaN(contentLength) && byteCount !== contentLength) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, byteCount));
    };
    const onError = (error: Error & { statusCode?: number }) => {
      stop();
      // As Fastify's reader does: a body that broke off is the client's error.
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      reject(error);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.resume();
  });
}
