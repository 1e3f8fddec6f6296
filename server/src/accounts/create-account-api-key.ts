import type { CreateApiKeyRequest, CreatedApiKey } from '../../../contract/api-keys.ts';
import type { PriceList } from '../catalog/price-list.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { parseUsdToMicros } from '../lib/money.ts';
import { findUserById } from '../db/users.ts';
import { postAccountMail, type AccountMailDeps } from './account-mail.ts';
import { issueApiKey, type IssueApiKeyDeps } from './issue-api-key.ts';
import { checkKeyLimits } from './check-key-limits.ts';
import type { AccountTerms } from './account-terms.ts';
import { toApiKeySummary } from './to-api-key-summary.ts';

export type CreateAccountApiKeyDeps = IssueApiKeyDeps &
  Pick<AccountMailDeps, 'mailer' | 'publicBaseUrl'> & {
    priceList: Pick<PriceList, 'find'>;
    accountTerms: Pick<AccountTerms, 'limitsOf'>;
  };

/**
 * Checks the key's limits (expiry in the future, an exact positive cap and budgets, known models, rate limits no higher than the
 * account's, room for one more key) and issues it, shown once. The account is mailed that a key was created (its
 * name and hint, never the key), so a key made by someone who took over the session does not go unnoticed.
 */
export async function createAccountApiKey(
  deps: CreateAccountApiKeyDeps,
  input: { userId: string; request: CreateApiKeyRequest },
): Promise<CreatedApiKey> {
  const { request } = input;
  const nowMs = deps.clock.nowMs();
  const expiresAt = parseExpiry(request.expires_at, nowMs);
  const spendCapMicros = parseUsdLimit(request.spend_cap_usd, 'spend_cap_usd');
  const dailyBudgetMicros = parseUsdLimit(request.daily_budget_usd, 'daily_budget_usd');
  const monthlyBudgetMicros = parseUsdLimit(request.monthly_budget_usd, 'monthly_budget_usd');
  const allowedModels = parseAllowedModels(request.allowed_models, deps.priceList);
  const requestsPerMinute = request.requests_per_minute ?? null;
  const tokensPerMinute = request.tokens_per_minute ?? null;
  await checkKeyLimits(deps, { userId: input.userId, nowMs, requestsPerMinute, tokensPerMinute });
  const issued = await issueApiKey(deps, {
    userId: input.userId,
    name: request.name,
    expiresAt,
    spendCapMicros,
    allowedModels,
    requestsPerMinute,
    tokensPerMinute,
    dailyBudgetMicros,
    monthlyBudgetMicros,
  });
  const summary = toApiKeySummary({
    id: issued.id,
    user_id: input.userId,
    name: issued.name,
    prefix: issued.displayPrefix,
    last_four: issued.lastFour,
    created_at: issued.createdAtMs,
    last_used_at: null,
    expires_at: expiresAt,
    spend_cap_micros: spendCapMicros,
    spent_micros: 0,
    allowed_models: allowedModels === null ? null : allowedModels.join('\n'),
    requests_per_minute: requestsPerMinute,
    tokens_per_minute: tokensPerMinute,
    daily_budget_micros: dailyBudgetMicros,
    monthly_budget_micros: monthlyBudgetMicros,
  });
  const owner = await findUserById(deps.db, input.userId);
  if (owner) {
    postAccountMail(deps, {
      to: owner.email,
      locale: owner.locale,
      mail: {
        kind: 'key-created',
        keyName: issued.name,
        keyHint: `${issued.displayPrefix}…${issued.lastFour}`,
        dashboardUrl: `${deps.publicBaseUrl}/dashboard`,
      },
    });
  }
  return { ...summary, key: issued.key };
}

function parseExpiry(expiresAt: string | null | undefined, nowMs: number): number | null {
  if (expiresAt === null || expiresAt === undefined) return null;
  const expiresAtMs = Date.parse(expiresAt);
  if (!(expiresAtMs > nowMs)) {
    throw new InvalidRequestError('`expires_at` must be a time in the future.', { param: 'expires_at' });
  }
  return expiresAtMs;
}

/** A lifetime cap or a day or month budget: an exact positive USD amount, or null for none. */
function parseUsdLimit(usd: string | number | null | undefined, param: string): number | null {
  if (usd === null || usd === undefined) return null;
  const micros = parseUsdToMicros(String(usd));
  if (micros === undefined) {
    throw new InvalidRequestError(
      `\`${param}\` must be a decimal USD amount with at most six decimals, such as "25" or "0.5".`,
      { param },
    );
  }
  if (micros <= 0) throw new InvalidRequestError(`\`${param}\` must be greater than zero.`, { param });
  return micros;
}

function parseAllowedModels(
  allowedModels: readonly string[] | null | undefined,
  priceList: Pick<PriceList, 'find'>,
): string[] | null {
  if (allowedModels === null || allowedModels === undefined) return null;
  const unique = [...new Set(allowedModels)];
  const unknownIndex = allowedModels.findIndex((modelId) => !priceList.find(modelId));
  if (unknownIndex >= 0) {
    throw new InvalidRequestError(
      `The model \`${allowedModels[unknownIndex]}\` is not in the price list; see GET /api/models.`,
      { param: `allowed_models[${unknownIndex}]`, code: 'model_not_found' },
    );
  }
  return unique;
}
