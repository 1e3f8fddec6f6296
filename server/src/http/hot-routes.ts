import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerFactory } from 'fastify';
import type { Logger } from 'pino';
import { createLazyRequestLogger } from './lazy-request-logger.ts';
import { logRequestLine } from './log-request-line.ts';
import { countResponse, type HttpMetrics } from './metrics.ts';
import type { OpenCalls } from './open-calls.ts';
import { listV1CorsHeaders } from './v1/cors.ts';

/** One request to a hot route, on node's own request and response, with what Fastify would have given it. */
export type HotExchange = {
  incoming: IncomingMessage;
  response: ServerResponse;
  requestId: string;
  /** The request's logger, bound to its id, as `request.log` is. */
  log: FastifyBaseLogger;
};

/** Serves a hot route's call: reads the body, answers, and writes its own errors; never rejects (`answerHotCall`). */
export type HotRouteHandler = (exchange: HotExchange) => Promise<void>;

export type HotRoutes = {
  /** Fastify's `serverFactory`: the server whose listener sends hot routes past Fastify. */
  serverFactory: FastifyServerFactory;
  /**
   * Serves `POST <path>` (any query string) with `handler` on the server's own listener. The route stays registered
   * in Fastify too, for what it answers there (`app.inject`, CORS preflights, other methods).
   */
  serve: (path: string, handler: HotRouteHandler) => void;
  /** Answers 503 from the moment `app` starts closing, as Fastify does for its own routes. */
  watchClosing: (app: FastifyInstance) => void;
};

export type HotRouteDeps = {
  logger: Logger;
  newRequestId: () => string;
  metrics: HttpMetrics;
  openCalls: OpenCalls | undefined;
  corsOrigins: '*' | readonly string[];
};

/**
 * The hottest `/v1` routes served on bare node:http, without a Fastify request, reply, router lookup, hook chains or
 * content-type parser per call (docs/decisions/1870-hot-v1-routes-on-node-http.md). Everything Fastify did for them
 * is done here with the same functions: the request id and its header, CORS headers, open-call tracking, the 503
 * while closing, and on the response's end the access log line and the HTTP metrics. Everything else goes to
 * Fastify's own handler.
 */
export function createHotRoutes(deps: HotRouteDeps): HotRoutes {
  const handlers = new Map<string, HotRouteHandler>();
  const isRequestLogged = deps.logger.isLevelEnabled('info');
  let isClosing = false;
  const serveHot = (incoming: IncomingMessage, response: ServerResponse, path: string, handler: HotRouteHandler) => {
    if (isClosing) {
      answerClosing(response);
      return;
    }
    const startedAt = performance.now();
    const requestId = deps.newRequestId();
    response.setHeader('x-request-id', requestId);
    const corsHeaders = listV1CorsHeaders(incoming.headers.origin, deps.corsOrigins);
    for (const name in corsHeaders) response.setHeader(name, corsHeaders[name] as string);
    deps.openCalls?.add(requestId, incoming.socket, response);
    const onEnd = () => {
      response.off('finish', onEnd);
      response.off('error', onEnd);
      const ended = { method: 'POST', route: path, status: response.statusCode };
      const elapsedMs = performance.now() - startedAt;
      if (isRequestLogged) logRequestLine(deps.logger, { reqId: requestId, ...ended, ms: elapsedMs });
      countResponse(deps.metrics, { ...ended, elapsedMs });
    };
    response.on('finish', onEnd);
    response.on('error', onEnd);
    const log = createLazyRequestLogger(deps.logger as FastifyBaseLogger, { reqId: requestId }, {});
    void handler({ incoming, response, requestId, log });
  };
  return {
    serverFactory: (fastifyHandler, options) => {
      const server = createServer((incoming, response) => {
        const path = incoming.method === 'POST' ? readPath(incoming.url) : '';
        const handler = handlers.get(path);
        if (handler === undefined) fastifyHandler(incoming, response);
        else serveHot(incoming, response, path, handler);
      });
      applyFastifyServerOptions(server, options);
      return server;
    },
    serve: (path, handler) => void handlers.set(path, handler),
    watchClosing: (app) => {
      app.addHook('preClose', (done) => {
        isClosing = true;
        done();
      });
    },
  };
}

function readPath(url: string | undefined): string {
  if (url === undefined) return '';
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : url.slice(0, queryAt);
}

/** The timeouts Fastify sets on a server it creates itself, which it leaves to a `serverFactory`. */
function applyFastifyServerOptions(server: Server, options: Record<string, unknown>): void {
  server.keepAliveTimeout = Number(options['keepAliveTimeout']);
  server.requestTimeout = Number(options['requestTimeout']);
  server.setTimeout(Number(options['connectionTimeout']));
  const maxRequestsPerSocket = Number(options['maxRequestsPerSocket']);
  if (maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket;
}

/** Fastify's own answer (`return503OnClosing`) to a request that arrives while the server closes. */
function answerClosing(response: ServerResponse): void {
  const body = '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}';
  response.setHeader('connection', 'close');
  response.writeHead(503, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body);
}
