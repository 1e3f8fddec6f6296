import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { InternalError } from '../errors/internal-error.ts';
import { authenticate, type AuthenticateDeps, type Caller } from '../pipeline/authenticate.ts';
import { readAuthHeaders } from './read-auth-headers.ts';
import { readRequestBody } from './read-request-body.ts';
import type { HotExchange, HotRouteHandler } from './hot-routes.ts';
import { writeErrorResponse } from './write-error.ts';

/**
 * Runs a hot route's call and writes what the call leaves to be written, as Fastify's `reply.send` and error handler
 * did for a route handler: an answer in one JSON body, or the error the call threw (before anything was sent) in the
 * API's shape at the path. A call that streamed its answer, or closed the connection, resolves to undefined.
 */
export async function answerHotCall(
  exchange: HotExchange,
  call: () => Promise<object | string | undefined>,
): Promise<void> {
  const { response } = exchange;
  try {
    writeAnswer(exchange, await call());
  } catch (error) {
    try {
      if (isAnswered(response)) response.destroy();
      else writeErrorResponse({ ...exchange, error });
    } catch (writeFailure) {
      // Nothing is left to answer with; the handler's promise must not reject, which would end the process.
      exchange.log.error({ err: writeFailure }, 'request failed');
      response.destroy();
    }
  }
}

function writeAnswer(exchange: HotExchange, answer: object | string | undefined): void {
  const { response } = exchange;
  if (isAnswered(response)) return;
  if (answer === undefined) {
    writeErrorResponse({ ...exchange, error: new InternalError('The call ended without an answer.') });
    return;
  }
  const body = typeof answer === 'string' ? answer : JSON.stringify(answer);
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(body));
  response.writeHead(200).end(body);
}

/**
 * What every hot call starts with, in Fastify's order: the body read and parsed (so a bad body is refused before the
 * key is looked at), then the caller authenticated; and the setter of the headers the call adds.
 */
export async function readHotCall(
  deps: AuthenticateDeps & { bodyLimitBytes: number },
  exchange: HotExchange,
): Promise<{ body: unknown; caller: Caller; setHeaders: (headers: Readonly<Record<string, string>>) => void }> {
  const { incoming, response } = exchange;
  const body = await readRequestBody({ incoming, response, limitBytes: deps.bodyLimitBytes });
  const caller = await authenticate(deps, readAuthHeaders(incoming));
  return { body, caller, setHeaders: (headers) => setResponseHeaders(response, headers) };
}

/** Headers a call sets before its answer (rate limits, the route shown to operator keys). */
export function setResponseHeaders(response: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) response.setHeader(name, headers[name] as string);
}

/**
 * Registers a hot route in Fastify too: what reaches it there (`app.inject`, which never reaches the server's
 * listener, or a percent-encoded path) goes to the same handler, from an `onRequest` hook before Fastify reads the
 * body, with the headers Fastify's hooks set. The registration also makes CORS preflights and the path's other
 * methods answer as for any route.
 */
export function registerHotEntry(app: FastifyInstance, path: string, handler: HotRouteHandler): void {
  app.post(
    path,
    {
      onRequest: (request, reply, done) => {
        reply.hijack();
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined) reply.raw.setHeader(name, value);
        }
        void handler({ incoming: request.raw, response: reply.raw, requestId: request.id, log: request.log });
        done();
      },
    },
    // Never called: the hook above hijacks every request first.
    async () => {
      throw new InternalError(`POST ${path} is answered in its onRequest hook.`);
    },
  );
}

/** Whether the answer went out already (a stream), or the connection is gone: nothing more can be written. */
function isAnswered(response: ServerResponse): boolean {
  return response.headersSent || response.destroyed || response.socket === null || response.socket.destroyed;
}
