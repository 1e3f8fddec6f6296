import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerHealthRoutes, type HealthDeps } from './http/health.ts';
import { registerMetrics, type HttpMetrics, type MetricsAccess } from './http/metrics.ts';
import { createRequestIdGenerator } from './http/middleware/request-id.ts';
import { registerApiEndpoints, type ApiEndpointDeps } from './http/api/register-api-endpoints.ts';
import { registerSessionMiddleware } from './http/middleware/session.ts';
import { registerV1Routes, type V1Deps } from './http/v1/register-v1-routes.ts';
import { registerV1Cors } from './http/v1/cors.ts';
import { registerPaymentWebhookRoutes, type PaymentWebhookRouteDeps } from './http/webhooks/payment-notifications.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerUtf8JsonBodyParser } from './http/utf8-json-body-parser.ts';
import { writeError } from './http/write-error.ts';
import { answerClientError } from './http/answer-client-error.ts';
import { createLazyRequestLogger } from './http/lazy-request-logger.ts';
import { createHotRoutes } from './http/hot-routes.ts';
import { logRequestLine } from './http/log-request-line.ts';
import type { IdGenerator } from './lib/ids.ts';

/** What the account and operator API needs; its routes also get the session guard that `buildApp` creates. */
type AccountApiDeps = Omit<ApiEndpointDeps, 'sessions'>;

export type AppDeps = HealthDeps &
  V1Deps &
  PaymentWebhookRouteDeps &
  AccountApiDeps & {
    logger: Logger;
    ids: IdGenerator;
    metrics: HttpMetrics;
    metricsAccess: MetricsAccess;
    bodyLimitBytes: number;
    trustProxy: boolean | number | string;
    version: string;
    webDistDir: string;
    corsOrigins: '*' | readonly string[];
  };

/** Mounts every router on one Fastify instance; no logic lives here. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const genReqId = createRequestIdGenerator(deps.ids);
  const hotRoutes = createHotRoutes({
    logger: deps.logger,
    newRequestId: genReqId,
    metrics: deps.metrics,
    openCalls: deps.openCalls,
    corsOrigins: deps.corsOrigins,
  });
  const app: FastifyInstance = Fastify({
    serverFactory: hotRoutes.serverFactory,
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: createLazyRequestLogger,
    genReqId,
    requestIdHeader: false,
    bodyLimit: deps.bodyLimitBytes,
    trustProxy: deps.trustProxy as boolean, // Fastify accepts the same forms; its overloads only narrow on boolean
    return503OnClosing: true,
    forceCloseConnections: false,
    // Errors before a route runs (a bad URL, an over-long id, an unparseable request) in the API's error shape.
    frameworkErrors: (error, request, reply) => writeError(request, reply, error),
    clientErrorHandler: (error, socket) =>
      answerClientError({ error, socket, requestId: deps.ids.newId('req_'), log: deps.logger as FastifyBaseLogger }),
  });
  // Callback hooks, not async ones: Fastify then makes no promise per request and hook. The log level is fixed at start.
  const isRequestLogged = deps.logger.isLevelEnabled('info');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (isRequestLogged) {
      const route = request.routeOptions.url;
      logRequestLine(deps.logger, {
        reqId: request.id,
        method: request.method,
        route,
        status: reply.statusCode,
        ms: reply.elapsedTime,
      });
    }
    done();
  });
  app.setErrorHandler((error, request, reply) => writeError(request, reply, error));
  registerUtf8JsonBodyParser(app);
  const sessions = registerSessionMiddleware(app, deps);
  registerMetrics(app, deps.metrics, deps.metricsAccess);
  registerHealthRoutes(app, {
    pingDatabase: deps.pingDatabase,
    redis: deps.redis,
    isShuttingDown: deps.isShuttingDown,
    webSearchHealth: deps.webSearchHealth,
    processes: deps.processes,
  });
  registerV1Cors(app, { origins: deps.corsOrigins });
  registerV1Routes(app, deps, hotRoutes);
  hotRoutes.watchClosing(app);
  registerApiEndpoints(app, { ...deps, sessions });
  registerPaymentWebhookRoutes(app, deps);
  await registerWebApp(app, { distDir: deps.webDistDir });
  return app;
}
