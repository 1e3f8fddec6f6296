import type { FastifyInstance } from 'fastify';
import { errorCodes } from 'fastify';
import secureJson from 'secure-json-parse';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
const poisoning = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * A JSON request body, refused when its bytes are not UTF-8 (RFC 8259 §8.1). Fastify's default parser decodes
 * leniently, turning bad bytes into U+FFFD, so a broken body would reach a vendor (and be billed) with text the client
 * never sent. The rest is what Fastify's default parser does (its errors included): secure-json-parse refuses
 * `__proto__` and `constructor.prototype` keys, so a body cannot poison an object's prototype. Shared by Fastify's
 * parser and the routes served on node:http (`hot-routes.ts`), so both answer a body alike.
 */
export function parseUtf8Json(body: Buffer): unknown {
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    throw new InvalidRequestError('The request body is not valid UTF-8. Send JSON encoded as UTF-8.', {
      code: 'invalid_json',
    });
  }
  if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  try {
    return secureJson.parse(text, undefined, poisoning);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
}

/** Replaces Fastify's JSON body parser with `parseUtf8Json`. */
export function registerUtf8JsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    let value: unknown;
    try {
      value = parseUtf8Json(body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, value);
  });
}
