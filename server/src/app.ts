import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerHealthRoutes, type HealthDeps } from './http/health.ts';
import { registerMetrics, type HttpMetrics } from './http/metrics.ts';
import { createRequestIdGenerator } from './http/middleware/request-id.ts';
import { registerOpenApiRoute } from './http/api/openapi.ts';
import { registerPublicModelRoutes, type PublicModelsDeps } from './http/api/public-models.ts';
import { registerModelRoutes, type ModelsRouteDeps } from './http/v1/models.ts';
import { registerWebApp } from './http/web-app.ts';
import { writeError } from './http/write-error.ts';
import type { IdGenerator } from './lib/ids.ts';

export type AppDeps = HealthDeps &
  ModelsRouteDeps &
  PublicModelsDeps & {
    logger: Logger;
    ids: IdGenerator;
    metrics: HttpMetrics;
    bodyLimitBytes: number;
    version: string;
    webDistDir: string;
  };

/** Mounts every router on one Fastify instance; no logic lives here. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    disableRequestLogging: true,
    genReqId: createRequestIdGenerator(deps.ids),
    requestIdHeader: false,
    bodyLimit: deps.bodyLimitBytes,
    return503OnClosing: true,
    forceCloseConnections: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  app.setErrorHandler((error, request, reply) => writeError(request, reply, error));
  registerMetrics(app, deps.metrics);
  registerHealthRoutes(app, deps);
  registerModelRoutes(app, deps);
  registerPublicModelRoutes(app, deps);
  registerOpenApiRoute(app, { version: deps.version, serverUrl: deps.publicBaseUrl });
  await registerWebApp(app, { distDir: deps.webDistDir });
  return app;
}
