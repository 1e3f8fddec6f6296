import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';

/**
 * Replaces Fastify's JSON body parser with one that refuses bytes that are not UTF-8 (RFC 8259 §8.1). The default
 * parser decodes leniently, turning bad bytes into U+FFFD, so a broken body would reach a vendor (and be billed)
 * with text the client never sent. Prototype-poisoning protection stays Fastify's own.
 */
export function registerUtf8JsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decoder.decode(body as Buffer);
    } catch {
      done(
        new InvalidRequestError('The request body is not valid UTF-8. Send JSON encoded as UTF-8.', {
          code: 'invalid_json',
        }),
        undefined,
      );
      return;
    }
    return parseJson(request, text, done);
  });
}
