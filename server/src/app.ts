import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { registerHealthRoutes, type HealthDeps } from './http/health.ts';
import { registerMetrics, type HttpMetrics } from './http/metrics.ts';
import { createRequestIdGenerator } from './http/middleware/request-id.ts';
import { registerApiKeyRoutes, type ApiKeyRouteDeps } from './http/api/api-keys.ts';
import { registerAuthRoutes, type AuthRouteDeps } from './http/api/auth.ts';
import { registerBalanceRoutes, type BalanceRouteDeps } from './http/api/balance.ts';
import { registerChatRoutes, type ChatRouteDeps } from './http/api/chats.ts';
import { registerOperatorPaymentRoutes, type OperatorPaymentRouteDeps } from './http/api/operator-payments.ts';
import { registerOperatorPlanRoutes, type OperatorPlanRouteDeps } from './http/api/operator-plans.ts';
import { registerOperatorImageTierRoutes, type OperatorImageTierRouteDeps } from './http/api/operator-image-tiers.ts';
import { registerOperatorPriceRoutes, type OperatorPriceRouteDeps } from './http/api/operator-prices.ts';
import { registerOperatorReportRoutes, type OperatorReportRouteDeps } from './http/api/operator-reports.ts';
import { registerOperatorRouteRoutes, type OperatorRouteDeps } from './http/api/operator-routes.ts';
import { registerOperatorUserRoutes, type OperatorUserRouteDeps } from './http/api/operator-users.ts';
import { registerOpenApiRoute } from './http/api/openapi.ts';
import { registerPublicModelRoutes, type PublicModelsDeps } from './http/api/public-models.ts';
import { registerSubscriptionRoutes, type SubscriptionRouteDeps } from './http/api/subscriptions.ts';
import { registerTopUpRoutes, type TopUpRouteDeps } from './http/api/top-ups.ts';
import { registerUsageRoutes, type UsageRouteDeps } from './http/api/usage.ts';
import { registerSessionMiddleware } from './http/middleware/session.ts';
import { registerChatCompletionRoutes, type ChatCompletionsRouteDeps } from './http/v1/chat-completions.ts';
import { registerImageRoutes, type ImagesRouteDeps } from './http/v1/images.ts';
import { registerKeyInfoRoutes, type KeyInfoRouteDeps } from './http/v1/key-info.ts';
import { registerMessagesRoutes } from './http/v1/messages.ts';
import { registerModelRoutes, type ModelsRouteDeps } from './http/v1/models.ts';
import { registerResponsesRoutes, type ResponsesRouteDeps } from './http/v1/responses.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerPaymentWebhookRoutes, type PaymentWebhookRouteDeps } from './http/webhooks/payment-notifications.ts';
import { registerUtf8JsonBodyParser } from './http/utf8-json-body-parser.ts';
import { writeError } from './http/write-error.ts';
import type { IdGenerator } from './lib/ids.ts';

/** What the account API under `/api` needs; its routes also get the session guard that `buildApp` creates. */
type AccountApiDeps = Omit<
  AuthRouteDeps & ApiKeyRouteDeps & UsageRouteDeps & BalanceRouteDeps & ChatRouteDeps,
  'sessions'
>;

/** What the operator API and the account's subscription endpoints need, besides the session guard. */
type OperatorApiDeps = Omit<
  OperatorUserRouteDeps &
    OperatorPriceRouteDeps &
    OperatorImageTierRouteDeps &
    OperatorPlanRouteDeps &
    OperatorReportRouteDeps &
    OperatorRouteDeps &
    SubscriptionRouteDeps &
    TopUpRouteDeps &
    OperatorPaymentRouteDeps,
  'sessions'
>;

export type AppDeps = HealthDeps &
  OperatorApiDeps &
  PaymentWebhookRouteDeps &
  ModelsRouteDeps &
  PublicModelsDeps &
  AccountApiDeps &
  KeyInfoRouteDeps &
  ChatCompletionsRouteDeps &
  ImagesRouteDeps &
  ResponsesRouteDeps & {
    logger: Logger;
    ids: IdGenerator;
    metrics: HttpMetrics;
    bodyLimitBytes: number;
    trustProxy: boolean | number | string;
    version: string;
    webDistDir: string;
  };

/** Mounts every router on one Fastify instance; no logic lives here. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: createRequestIdGenerator(deps.ids),
    requestIdHeader: false,
    bodyLimit: deps.bodyLimitBytes,
    trustProxy: deps.trustProxy as boolean, // Fastify accepts the same forms; its overloads only narrow on boolean
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
  registerUtf8JsonBodyParser(app);
  const sessions = registerSessionMiddleware(app, deps);
  registerMetrics(app, deps.metrics);
  registerHealthRoutes(app, deps);
  registerModelRoutes(app, deps);
  registerKeyInfoRoutes(app, deps);
  registerChatCompletionRoutes(app, deps);
  registerImageRoutes(app, deps);
  registerMessagesRoutes(app, deps);
  registerResponsesRoutes(app, deps);
  registerPublicModelRoutes(app, deps);
  registerAuthRoutes(app, { ...deps, sessions });
  registerApiKeyRoutes(app, { ...deps, sessions });
  registerUsageRoutes(app, { ...deps, sessions });
  registerBalanceRoutes(app, { ...deps, sessions });
  registerSubscriptionRoutes(app, { ...deps, sessions });
  registerOperatorUserRoutes(app, { ...deps, sessions });
  registerOperatorPriceRoutes(app, { ...deps, sessions });
  registerOperatorImageTierRoutes(app, { ...deps, sessions });
  registerOperatorPlanRoutes(app, { ...deps, sessions });
  registerOperatorReportRoutes(app, { ...deps, sessions });
  registerOperatorRouteRoutes(app, { ...deps, sessions });
  registerChatRoutes(app, { ...deps, sessions });
  registerTopUpRoutes(app, { ...deps, sessions });
  registerOperatorPaymentRoutes(app, { ...deps, sessions });
  registerPaymentWebhookRoutes(app, deps);
  registerOpenApiRoute(app, { version: deps.version, serverUrl: deps.publicBaseUrl });
  await registerWebApp(app, { distDir: deps.webDistDir });
  return app;
}
