import { createAccountEmailHandlers, type AccountEmailHandlerDeps } from './account-email.ts';
import { createApiKeyHandlers, type ApiKeyHandlerDeps } from './api-keys.ts';
import { createAuthHandlers, type AuthHandlerDeps } from './auth.ts';
import { createBalanceHandlers, type BalanceHandlerDeps } from './balance.ts';
import { createChatHandlers, type ChatHandlerDeps } from './chats.ts';
import type { ApiHandlers } from './endpoint-handler.ts';
import { createKeyInfoHandlers, type KeyInfoHandlerDeps } from './key-info.ts';
import { createOperatorImageTierHandlers, type OperatorImageTierHandlerDeps } from './operator-image-tiers.ts';
import { createOperatorModelHandlers, type OperatorModelHandlerDeps } from './operator-models.ts';
import { createModelSyncHandlers, type ModelSyncHandlerDeps } from './operator-model-sync.ts';
import { createOperatorPaymentHandlers, type OperatorPaymentHandlerDeps } from './operator-payments.ts';
import { createOperatorPlanHandlers, type OperatorPlanHandlerDeps } from './operator-plans.ts';
import { createOperatorPriceHandlers, type OperatorPriceHandlerDeps } from './operator-prices.ts';
import { createOperatorReportHandlers, type OperatorReportHandlerDeps } from './operator-reports.ts';
import { createOperatorRouteHandlers, type OperatorRouteHandlerDeps } from './operator-routes.ts';
import { createOperatorUserHandlers, type OperatorUserHandlerDeps } from './operator-users.ts';
import { createPublicModelHandlers, type PublicModelsDeps } from './public-models.ts';
import { createSubscriptionHandlers, type SubscriptionHandlerDeps } from './subscriptions.ts';
import { createTopUpHandlers, type TopUpHandlerDeps } from './top-ups.ts';
import { createUsageHandlers, type UsageHandlerDeps } from './usage.ts';
import { createAuditHandlers } from './audit.ts';
import { createTotpHandlers, type TotpHandlerDeps } from './totp.ts';
import { createOperatorWebSearchHandlers, type OperatorWebSearchHandlerDeps } from './operator-web-search.ts';

/** The union of what the endpoint groups need; each group's handlers see only their own part. */
export type ApiHandlerDeps = AuthHandlerDeps &
  ApiKeyHandlerDeps &
  UsageHandlerDeps &
  BalanceHandlerDeps &
  ChatHandlerDeps &
  KeyInfoHandlerDeps &
  PublicModelsDeps &
  SubscriptionHandlerDeps &
  OperatorUserHandlerDeps &
  OperatorPriceHandlerDeps &
  OperatorImageTierHandlerDeps &
  OperatorPlanHandlerDeps &
  OperatorReportHandlerDeps &
  OperatorRouteHandlerDeps &
  TopUpHandlerDeps &
  OperatorPaymentHandlerDeps &
  OperatorModelHandlerDeps &
  AccountEmailHandlerDeps &
  TotpHandlerDeps &
  ModelSyncHandlerDeps &
  OperatorWebSearchHandlerDeps & { openApiDocument: Record<string, unknown> };

/** The handler of every endpoint in `contract/api-endpoints.ts`, grouped by what they need. */
export function createApiHandlers(deps: ApiHandlerDeps): ApiHandlers {
  return {
    ...createPublicModelHandlers(deps),
    getOpenApiDocument: async () => deps.openApiDocument,
    ...createAuthHandlers(deps),
    ...createApiKeyHandlers(deps),
    ...createUsageHandlers(deps),
    ...createBalanceHandlers(deps),
    ...createKeyInfoHandlers(deps),
    ...createChatHandlers(deps),
    ...createSubscriptionHandlers(deps),
    ...createOperatorUserHandlers(deps),
    ...createOperatorPriceHandlers(deps),
    ...createOperatorImageTierHandlers(deps),
    ...createOperatorPlanHandlers(deps),
    ...createOperatorReportHandlers(deps),
    ...createOperatorRouteHandlers(deps),
    ...createTopUpHandlers(deps),
    ...createOperatorPaymentHandlers(deps),
    ...createOperatorModelHandlers(deps),
    ...createAccountEmailHandlers(deps),
    ...createAuditHandlers(deps),
    ...createTotpHandlers(deps),
    ...createModelSyncHandlers(deps),
    ...createOperatorWebSearchHandlers(deps),
  };
}
