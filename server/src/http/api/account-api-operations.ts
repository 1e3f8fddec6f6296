import type { z } from 'zod';
import {
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  deletedApiKeySchema,
} from '../../../../contract/api-keys.ts';
import { changePasswordRequestSchema, credentialsSchema, meSchema } from '../../../../contract/auth.ts';
import { balanceSchema } from '../../../../contract/balance.ts';
import { creditsSchema, keyInfoSchema } from '../../../../contract/key-info.ts';
import {
  dailyUsageListSchema,
  usageFilterQuerySchema,
  usagePageSchema,
  usageQuerySchema,
} from '../../../../contract/usage.ts';

/** One endpoint of the account API as the OpenAPI document describes it, built from the `contract/` schemas. */
export type AccountApiOperation = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  /** `session`: the `gw_session` cookie (and `x-csrf-token` unless GET); `apiKey`: `Authorization: Bearer sk-…`. */
  auth: 'none' | 'session' | 'apiKey';
  pathParameters?: readonly string[];
  query?: z.ZodObject;
  body?: { name: string; schema: z.ZodType };
  response: {
    status: '200' | '201' | '204';
    description: string;
    json?: { name: string; schema: z.ZodType };
    csv?: true;
  };
  errors: Readonly<Record<string, string>>;
};

const sessionErrors = {
  '401': 'Not signed in, or the session ended',
  '403': 'Missing `x-csrf-token`, or the account is blocked',
};
const keyErrors = { '401': 'Missing, malformed, unknown, revoked or expired API key', '403': 'The account is blocked' };
const me = { name: 'Me', schema: meSchema };

export const accountApiOperations: readonly AccountApiOperation[] = [
  {
    method: 'post',
    path: '/api/auth/register',
    operationId: 'register',
    summary: 'Create an account with e-mail and password and sign in (sets the session cookie)',
    auth: 'none',
    body: { name: 'Credentials', schema: credentialsSchema },
    response: { status: '201', description: 'The new account, signed in', json: me },
    errors: {
      '400': 'Invalid e-mail or weak password (`param` names the field)',
      '409': 'The e-mail is taken',
      '429': 'Too many registrations from this address',
    },
  },
  {
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login',
    summary: 'Sign in with e-mail and password (sets the session cookie)',
    auth: 'none',
    body: { name: 'Credentials', schema: credentialsSchema },
    response: { status: '200', description: 'The account, signed in', json: me },
    errors: {
      '400': 'Malformed body',
      '401': 'Wrong e-mail or password (one answer for both)',
      '403': 'The account is blocked',
      '429': 'Too many attempts for this e-mail or from this address',
    },
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    operationId: 'logout',
    summary: 'End the session and clear the cookie',
    auth: 'session',
    response: { status: '204', description: 'Signed out' },
    errors: { '403': 'Missing `x-csrf-token`' },
  },
  {
    method: 'get',
    path: '/api/me',
    operationId: 'getMe',
    summary: 'The signed-in account, its balance and the CSRF token',
    auth: 'session',
    response: { status: '200', description: 'The account', json: me },
    errors: sessionErrors,
  },
  {
    method: 'post',
    path: '/api/me/password',
    operationId: 'changePassword',
    summary: 'Change the password; every other session is signed out',
    auth: 'session',
    body: { name: 'ChangePasswordRequest', schema: changePasswordRequestSchema },
    response: { status: '204', description: 'Changed' },
    errors: { ...sessionErrors, '400': 'Wrong current password or weak new password', '429': 'Too many attempts' },
  },
  {
    method: 'get',
    path: '/api/keys',
    operationId: 'listApiKeys',
    summary: 'The account’s API keys (never the key itself)',
    auth: 'session',
    response: { status: '200', description: 'The keys', json: { name: 'ApiKeyList', schema: apiKeyListSchema } },
    errors: sessionErrors,
  },
  {
    method: 'post',
    path: '/api/keys',
    operationId: 'createApiKey',
    summary: 'Create an API key; the answer is the only time the full key is shown',
    auth: 'session',
    body: { name: 'CreateApiKeyRequest', schema: createApiKeyRequestSchema },
    response: {
      status: '201',
      description: 'The new key',
      json: { name: 'CreatedApiKey', schema: createdApiKeySchema },
    },
    errors: { ...sessionErrors, '400': 'Invalid name, expiry, spend cap, model or rate (`param` names it)' },
  },
  {
    method: 'delete',
    path: '/api/keys/{id}',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key; it stops working on every node within a second',
    auth: 'session',
    pathParameters: ['id'],
    response: { status: '200', description: 'Revoked', json: { name: 'DeletedApiKey', schema: deletedApiKeySchema } },
    errors: { ...sessionErrors, '404': 'No such key on this account' },
  },
  {
    method: 'get',
    path: '/api/usage',
    operationId: 'listUsage',
    summary: 'The account’s calls, newest first, one page at a time',
    auth: 'session',
    query: usageQuerySchema,
    response: { status: '200', description: 'A page of calls', json: { name: 'UsagePage', schema: usagePageSchema } },
    errors: { ...sessionErrors, '400': 'Invalid filter or cursor' },
  },
  {
    method: 'get',
    path: '/api/usage/daily',
    operationId: 'listDailyUsage',
    summary: 'Requests, tokens and cost per UTC day and model',
    auth: 'session',
    query: usageFilterQuerySchema,
    response: {
      status: '200',
      description: 'Daily totals',
      json: { name: 'DailyUsageList', schema: dailyUsageListSchema },
    },
    errors: { ...sessionErrors, '400': 'Invalid filter' },
  },
  {
    method: 'get',
    path: '/api/usage.csv',
    operationId: 'exportUsageCsv',
    summary: 'The account’s calls as RFC 4180 CSV with a header row (at most 100,000 rows)',
    auth: 'session',
    query: usageFilterQuerySchema,
    response: { status: '200', description: 'CSV; `x-csv-truncated: true` when the range had more rows', csv: true },
    errors: { ...sessionErrors, '400': 'Invalid filter' },
  },
  {
    method: 'get',
    path: '/api/balance',
    operationId: 'getBalance',
    summary: 'Balance, held and available credit, and the latest ledger entries',
    auth: 'session',
    response: { status: '200', description: 'The balance', json: { name: 'Balance', schema: balanceSchema } },
    errors: sessionErrors,
  },
  {
    method: 'get',
    path: '/v1/credits',
    operationId: 'getCredits',
    summary: 'OpenRouter-compatible: total credited and total spent, USD',
    auth: 'apiKey',
    response: { status: '200', description: 'Credits', json: { name: 'Credits', schema: creditsSchema } },
    errors: keyErrors,
  },
  {
    method: 'get',
    path: '/v1/key',
    operationId: 'getKeyInfo',
    summary: 'OpenRouter-compatible: the calling key’s spend cap, spend and rate limit',
    auth: 'apiKey',
    response: { status: '200', description: 'Key info', json: { name: 'KeyInfo', schema: keyInfoSchema } },
    errors: keyErrors,
  },
  {
    method: 'get',
    path: '/v1/auth/key',
    operationId: 'getKeyInfoLegacyPath',
    summary: 'The same as GET /v1/key, at the legacy path many clients use',
    auth: 'apiKey',
    response: { status: '200', description: 'Key info', json: { name: 'KeyInfo', schema: keyInfoSchema } },
    errors: keyErrors,
  },
];
