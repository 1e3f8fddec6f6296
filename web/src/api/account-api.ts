import { z } from 'zod';
import {
  apiKeyListSchema,
  createdApiKeySchema,
  deletedApiKeySchema,
  type ApiKeyList,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '../../../contract/api-keys.ts';
import { meSchema, type Credentials, type Me } from '../../../contract/auth.ts';
import { balanceSchema, type Balance } from '../../../contract/balance.ts';
import {
  dailyUsageListSchema,
  usagePageSchema,
  type DailyUsageList,
  type UsagePage,
  type UsageQuery,
} from '../../../contract/usage.ts';
import {
  accountSubscriptionSchema,
  subscriptionPurchaseSchema,
  type AccountSubscription,
  type BuySubscriptionRequest,
  type SubscriptionPurchase,
} from '../../../contract/subscriptions.ts';
import { getJson, sendJson, type RequestOptions } from './api-client.ts';

const emptySchema = z.object({});

export const register = (credentials: Credentials): Promise<Me> =>
  sendJson('/api/auth/register', meSchema, { method: 'POST', body: credentials });

export const logIn = (credentials: Credentials): Promise<Me> =>
  sendJson('/api/auth/login', meSchema, { method: 'POST', body: credentials });

export const logOut = (): Promise<unknown> => sendJson('/api/auth/logout', emptySchema, { method: 'POST' });

export const getMe = (options: RequestOptions = {}): Promise<Me> => getJson('/api/me', meSchema, options);

export const getBalance = (options: RequestOptions = {}): Promise<Balance> =>
  getJson('/api/balance', balanceSchema, options);

export const listApiKeys = (options: RequestOptions = {}): Promise<ApiKeyList> =>
  getJson('/api/keys', apiKeyListSchema, options);

export const createApiKey = (request: CreateApiKeyRequest): Promise<CreatedApiKey> =>
  sendJson('/api/keys', createdApiKeySchema, { method: 'POST', body: request });

export const revokeApiKey = (id: string) =>
  sendJson(`/api/keys/${encodeURIComponent(id)}`, deletedApiKeySchema, { method: 'DELETE' });

/** The query string of the usage endpoints (`?from&to&model&key_id…`), without empty values. */
export function usageSearch(query: UsageQuery): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') parameters.set(name, String(value));
  }
  const text = parameters.toString();
  return text ? `?${text}` : '';
}

export const listUsage = (query: UsageQuery, options: RequestOptions = {}): Promise<UsagePage> =>
  getJson(`/api/usage${usageSearch(query)}`, usagePageSchema, options);

export const listDailyUsage = (query: UsageQuery, options: RequestOptions = {}): Promise<DailyUsageList> =>
  getJson(`/api/usage/daily${usageSearch(query)}`, dailyUsageListSchema, options);

export const getSubscription = (options: RequestOptions = {}): Promise<AccountSubscription> =>
  getJson('/api/subscription', accountSubscriptionSchema, options);

export const buySubscription = (request: BuySubscriptionRequest): Promise<SubscriptionPurchase> =>
  sendJson('/api/subscription', subscriptionPurchaseSchema, { method: 'POST', body: request });

export const setAutoRenew = (isAutoRenewing: boolean): Promise<AccountSubscription> =>
  sendJson('/api/subscription/auto-renew', accountSubscriptionSchema, {
    method: 'POST',
    body: { auto_renew: isAutoRenewing },
  });
