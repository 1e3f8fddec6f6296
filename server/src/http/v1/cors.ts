import type { FastifyInstance, FastifyRequest } from 'fastify';
import { convertError } from '../../anthropic-api/convert-error.ts';
import { NotFoundError } from '../../errors/not-found-error.ts';
import { writeError } from '../write-error.ts';

/** Response headers a browser client may read: request ids, rate limits, the route an operator key was served by. */
const exposedHeaders = [
  'request-id',
  'x-request-id',
  'retry-after',
  'x-gateway-route',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-tokens',
].join(', ');

/** How long a browser may reuse a preflight's answer. */
const preflightMaxAgeSeconds = 600;

const catchAllMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type KnownRoute = { pattern: RegExp; methods: readonly string[] };

/**
 * CORS for `/v1`, so browser apps call the API directly with a user's key. Origins come from `CORS_ORIGINS` (default:
 * any). Credentials (cookies) are never allowed: `/v1` keys travel in a header, and a wildcard origin with credentials
 * would let any site ride a signed-in session. A preflight (`OPTIONS`) needs no key; one for a path or method no
 * `/v1` endpoint answers is a 404 in the API's own error shape, so the mistake shows in the browser console.
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */
export function registerV1Cors(app: FastifyInstance, input: { origins: '*' | readonly string[] }): void {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1')) return;
    const methods = [route.method].flat().filter((method) => method !== 'OPTIONS');
    // A wildcard route for every method is a catch-all that answers unknown paths, not an endpoint.
    const isCatchAll = route.url.endsWith('*') && catchAllMethods.every((method) => methods.includes(method));
    if (methods.length === 0 || isCatchAll) return;
    const source = route.url
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:[^/]+/g, '[^/]+')
      .replace(/\*$/, '.+');
    routes.push({ pattern: new RegExp(`^${source}$`), methods });
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!/^\/v1(\/|$|\?)/.test(request.url) || request.method === 'OPTIONS') return;
    const headers = listV1CorsHeaders(request.headers.origin, input.origins);
    if (headers !== undefined) reply.headers(headers);
  });
  app.options('/v1/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const requested = readRequestedMethod(request);
    const route = routes.find(
      (known) => known.pattern.test(path) && (requested === undefined || known.methods.includes(requested)),
    );
    if (!route) {
      const error = new NotFoundError(
        `No /v1 endpoint answers ${requested ?? 'any method'} ${path}, so this CORS preflight has nothing to allow.`,
      );
      if (!path.startsWith('/v1/messages')) return writeError(request, reply, error);
      return writeError(request, reply, error, (gatewayError) => convertError(gatewayError, request.id));
    }
    reply.headers(allowOrigin(request.headers.origin, input.origins));
    reply.header('access-control-allow-methods', route.methods.join(', '));
    const requestedHeaders = request.headers['access-control-request-headers'];
    if (typeof requestedHeaders === 'string' && requestedHeaders !== '') {
      reply.header('access-control-allow-headers', requestedHeaders);
    }
    reply.header('access-control-max-age', String(preflightMaxAgeSeconds));
    return reply.code(204).send();
  });
}

/**
 * The CORS headers of an answer to a `/v1` request from `origin` (a preflight's are the route's own), or undefined
 * when the request names no origin.
 */
export function listV1CorsHeaders(
  origin: string | undefined,
  origins: '*' | readonly string[],
): Record<string, string> | undefined {
  if (origin === undefined) return undefined;
  return { ...allowOrigin(origin, origins), 'access-control-expose-headers': exposedHeaders };
}

function allowOrigin(origin: string | undefined, origins: '*' | readonly string[]): Record<string, string> {
  if (origin === undefined) return {};
  if (origins === '*') return { 'access-control-allow-origin': '*' };
  if (!origins.includes(origin.toLowerCase())) return { vary: 'origin' };
  return { vary: 'origin', 'access-control-allow-origin': origin };
}

function readRequestedMethod(request: FastifyRequest): string | undefined {
  const method = request.headers['access-control-request-method'];
  return typeof method === 'string' && method !== '' ? method.toUpperCase() : undefined;
}
