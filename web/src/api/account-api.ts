import type { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from '../../../contract/api-keys.ts';
import { apiEndpoints } from '../../../contract/api-endpoints.ts';
import type { Credentials, Me, RegisterRequest } from '../../../contract/auth.ts';
import type { Balance } from '../../../contract/balance.ts';
import type { DailyUsageList, UsagePage, UsageQuery } from '../../../contract/usage.ts';
import type {
  AccountSubscription,
  BuySubscriptionRequest,
  SubscriptionPurchase,
} from '../../../contract/subscriptions.ts';
import type { RequestOptions } from './api-client.ts';
import { callEndpoint, toSearch } from './call-endpoint.ts';

export const register = (request: RegisterRequest): Promise<Me> =>
  callEndpoint(apiEndpoints.register, { body: request });

export const logIn = (credentials: Credentials): Promise<Me> => callEndpoint(apiEndpoints.login, { body: credentials });

export const logOut = (): Promise<unknown> => callEndpoint(apiEndpoints.logout, {});

export const getMe = (options: RequestOptions = {}): Promise<Me> => callEndpoint(apiEndpoints.getMe, {}, options);

export const getBalance = (options: RequestOptions = {}): Promise<Balance> =>
  callEndpoint(apiEndpoints.getBalance, {}, options);

export const listApiKeys = (options: RequestOptions = {}): Promise<ApiKeyList> =>
  callEndpoint(apiEndpoints.listApiKeys, {}, options);

export const createApiKey = (request: CreateApiKeyRequest): Promise<CreatedApiKey> =>
  callEndpoint(apiEndpoints.createApiKey, { body: request });

export const revokeApiKey = (id: string) => callEndpoint(apiEndpoints.revokeApiKey, { params: { id } });

/** The query string of the usage endpoints (`?from&to&model&key_id…`), without empty values. */
export const usageSearch = (query: UsageQuery): string => toSearch(query);

export const listUsage = (query: UsageQuery, options: RequestOptions = {}): Promise<UsagePage> =>
  callEndpoint(apiEndpoints.listUsage, { query }, options);

export const listDailyUsage = (query: UsageQuery, options: RequestOptions = {}): Promise<DailyUsageList> =>
  callEndpoint(apiEndpoints.listDailyUsage, { query }, options);

export const getSubscription = (options: RequestOptions = {}): Promise<AccountSubscription> =>
  callEndpoint(apiEndpoints.getSubscription, {}, options);

export const buySubscription = (request: BuySubscriptionRequest): Promise<SubscriptionPurchase> =>
  callEndpoint(apiEndpoints.buySubscription, { body: request });

export const setAutoRenew = (isAutoRenewing: boolean): Promise<AccountSubscription> =>
  callEndpoint(apiEndpoints.setAutoRenewal, { body: { auto_renew: isAutoRenewing } });
