import { z } from 'zod';
import { apiKeyErrors, sessionErrors, type ApiEndpoint } from './api-endpoint.ts';
import { apiKeyListSchema, createApiKeyRequestSchema, createdApiKeySchema, deletedApiKeySchema } from './api-keys.ts';
import { changePasswordRequestSchema, credentialsSchema, meSchema, registerRequestSchema } from './auth.ts';
import { balanceSchema } from './balance.ts';
import { creditsSchema, keyInfoSchema } from './key-info.ts';
import { publicModelListSchema } from './models.ts';
import { dailyUsageListSchema, usageFilterQuerySchema, usagePageSchema, usageQuerySchema } from './usage.ts';

const me = { name: 'Me', schema: meSchema };
const credentials = { name: 'Credentials', schema: credentialsSchema };
const keyInfo = { name: 'KeyInfo', schema: keyInfoSchema };

/** The public endpoints, the signed-in account's endpoints, and the account data a program reads with its API key. */
export const accountEndpoints = {
  listPublicModels: {
    method: 'get',
    path: '/api/models',
    summary: 'The public price list: every available model with our and the vendor list price',
    auth: 'public',
    response: {
      status: 200,
      description: 'The price list',
      json: { name: 'PublicModelList', schema: publicModelListSchema },
    },
    errors: {},
  },
  getOpenApiDocument: {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document: the account and operator API in OpenAPI 3.1',
    auth: 'public',
    response: {
      status: 200,
      description: 'The OpenAPI document',
      json: { name: 'OpenApiDocument', schema: z.record(z.string(), z.unknown()) },
    },
    errors: {},
  },
  register: {
    method: 'post',
    path: '/api/auth/register',
    summary:
      'Create an account with e-mail and password and sign in (sets the session cookie); mails a verification link',
    auth: 'public',
    body: { name: 'RegisterRequest', schema: registerRequestSchema },
    response: { status: 201, description: 'The new account, signed in', json: me },
    errors: {
      '400':
        'Invalid e-mail, weak password, disposable domain, or a missing or failed challenge (`param` names the field)',
      '409': 'The e-mail is taken',
      '429': 'Too many registrations from this address or network',
    },
  },
  login: {
    method: 'post',
    path: '/api/auth/login',
    summary: 'Sign in with e-mail and password (sets the session cookie)',
    auth: 'public',
    body: credentials,
    response: { status: 200, description: 'The account, signed in', json: me },
    errors: {
      '400': 'Malformed body',
      '401': 'Wrong e-mail or password (one answer for both)',
      '403': 'The account is blocked',
      '429': 'Too many attempts for this e-mail or from this address',
    },
  },
  logout: {
    method: 'post',
    path: '/api/auth/logout',
    summary: 'End the session and clear the cookie',
    auth: 'sessionIfAny',
    response: { status: 204, description: 'Signed out' },
    errors: { '403': 'Missing `x-csrf-token`' },
  },
  getMe: {
    method: 'get',
    path: '/api/me',
    summary: 'The signed-in account, its balance and the CSRF token',
    auth: 'session',
    response: { status: 200, description: 'The account', json: me },
    errors: sessionErrors,
  },
  changePassword: {
    method: 'post',
    path: '/api/me/password',
    summary: 'Change the password; every other session is signed out',
    auth: 'session',
    body: { name: 'ChangePasswordRequest', schema: changePasswordRequestSchema },
    response: { status: 204, description: 'Changed' },
    errors: { ...sessionErrors, '400': 'Wrong current password or weak new password', '429': 'Too many attempts' },
  },
  listApiKeys: {
    method: 'get',
    path: '/api/keys',
    summary: 'The account’s API keys (never the key itself)',
    auth: 'session',
    response: { status: 200, description: 'The keys', json: { name: 'ApiKeyList', schema: apiKeyListSchema } },
    errors: sessionErrors,
  },
  createApiKey: {
    method: 'post',
    path: '/api/keys',
    summary: 'Create an API key; the answer is the only time the full key is shown',
    auth: 'session',
    body: { name: 'CreateApiKeyRequest', schema: createApiKeyRequestSchema },
    response: { status: 201, description: 'The new key', json: { name: 'CreatedApiKey', schema: createdApiKeySchema } },
    errors: {
      ...sessionErrors,
      '400': 'Invalid name, expiry, spend cap, model or rate, a rate above the account’s, or too many keys',
    },
  },
  revokeApiKey: {
    method: 'delete',
    path: '/api/keys/{id}',
    summary: 'Revoke an API key; it stops working on every node within a second',
    auth: 'session',
    response: { status: 200, description: 'Revoked', json: { name: 'DeletedApiKey', schema: deletedApiKeySchema } },
    errors: { ...sessionErrors, '404': 'No such key on this account' },
  },
  listUsage: {
    method: 'get',
    path: '/api/usage',
    summary: 'The account’s calls, newest first, one page at a time',
    auth: 'session',
    query: usageQuerySchema,
    response: { status: 200, description: 'A page of calls', json: { name: 'UsagePage', schema: usagePageSchema } },
    errors: { ...sessionErrors, '400': 'Invalid filter or cursor' },
  },
  listDailyUsage: {
    method: 'get',
    path: '/api/usage/daily',
    summary: 'Requests, tokens and cost per UTC day and model',
    auth: 'session',
    query: usageFilterQuerySchema,
    response: {
      status: 200,
      description: 'Daily totals',
      json: { name: 'DailyUsageList', schema: dailyUsageListSchema },
    },
    errors: { ...sessionErrors, '400': 'Invalid filter' },
  },
  exportUsageCsv: {
    method: 'get',
    path: '/api/usage.csv',
    summary: 'The account’s calls as RFC 4180 CSV with a header row (at most 100,000 rows)',
    auth: 'session',
    query: usageFilterQuerySchema,
    response: { status: 200, description: 'CSV; `x-csv-truncated: true` when the range had more rows', csv: true },
    errors: { ...sessionErrors, '400': 'Invalid filter' },
  },
  getBalance: {
    method: 'get',
    path: '/api/balance',
    summary: 'Balance, held and available credit, and the latest ledger entries',
    auth: 'session',
    response: { status: 200, description: 'The balance', json: { name: 'Balance', schema: balanceSchema } },
    errors: sessionErrors,
  },
  getCredits: {
    method: 'get',
    path: '/v1/credits',
    summary: 'OpenRouter-compatible: total credited and total spent, USD',
    auth: 'apiKey',
    response: { status: 200, description: 'Credits', json: { name: 'Credits', schema: creditsSchema } },
    errors: apiKeyErrors,
  },
  getKeyInfo: {
    method: 'get',
    path: '/v1/key',
    summary: 'OpenRouter-compatible: the calling key’s spend cap, spend and rate limit',
    auth: 'apiKey',
    response: { status: 200, description: 'Key info', json: keyInfo },
    errors: apiKeyErrors,
  },
  getKeyInfoLegacyPath: {
    method: 'get',
    path: '/v1/auth/key',
    summary: 'The same as GET /v1/key, at the legacy path many clients use',
    auth: 'apiKey',
    response: { status: 200, description: 'Key info', json: keyInfo },
    errors: apiKeyErrors,
  },
} as const satisfies Record<string, ApiEndpoint>;
