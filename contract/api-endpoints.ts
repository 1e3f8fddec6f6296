import { accountEndpoints } from './account-endpoints.ts';
import { accountEmailEndpoints } from './account-email-endpoints.ts';
import { auditEndpoints } from './audit-endpoints.ts';
import { totpEndpoints } from './totp-endpoints.ts';
import { modelSyncEndpoints } from './model-sync-endpoints.ts';
import { chatEndpoints } from './chat-endpoints.ts';
import { operatorEndpoints } from './operator-endpoints.ts';
import { paymentEndpoints } from './payment-endpoints.ts';
import { subscriptionEndpoints } from './subscription-endpoints.ts';
import { webSearchEndpoints } from './web-search-endpoints.ts';

/**
 * Every endpoint of the account and operator API, keyed by its OpenAPI `operationId`. The server registers its
 * routes from this table (one handler per entry, which the compiler demands), `GET /api/openapi.json` describes it,
 * and the web app's client takes paths, methods and schemas from it. Adding an endpoint is one entry here and its
 * handler on the server.
 */
export const apiEndpoints = {
  ...accountEndpoints,
  ...chatEndpoints,
  ...subscriptionEndpoints,
  ...operatorEndpoints,
  ...paymentEndpoints,
  ...accountEmailEndpoints,
  ...auditEndpoints,
  ...totpEndpoints,
  ...modelSyncEndpoints,
  ...webSearchEndpoints,
};

export type ApiEndpoints = typeof apiEndpoints;
export type OperationId = keyof ApiEndpoints;
