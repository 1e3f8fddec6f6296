import type { AccountModelPriceRequest, OperatorUserDetail } from '../../../contract/operator.ts';
import { deleteAccountModelPrice, upsertAccountModelPrice } from '../db/account-terms.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import { findModel } from '../db/models.ts';
import { findUserById } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { AccountTermsWriteDeps } from './set-account-terms.ts';
import { getOperatorUser } from './get-operator-user.ts';
import { parseOptionalUsdAmountMicros, parseUsdAmountMicros } from '../billing/parse-amounts.ts';

/** Sets an account's own price for one model, used instead of the price list's for that account. */
export async function setAccountModelPrice(
  deps: AccountTermsWriteDeps,
  input: { userId: string; request: AccountModelPriceRequest },
): Promise<OperatorUserDetail> {
  const { request } = input;
  if (!(await findUserById(deps.db, input.userId))) throw new NotFoundError(`There is no account \`${input.userId}\`.`);
  if (!(await findModel(deps.db, request.model_id))) {
    throw new NotFoundError(`There is no model \`${request.model_id}\` in the catalogue.`, { param: 'model_id' });
  }
  await upsertAccountModelPrice(deps.db, {
    user_id: input.userId,
    model_id: request.model_id,
    input_rate_micros: parseUsdAmountMicros(request.input_usd_per_million, 'input_usd_per_million'),
    output_rate_micros: parseUsdAmountMicros(request.output_usd_per_million, 'output_usd_per_million'),
    cached_input_rate_micros:
      parseOptionalUsdAmountMicros(request.cached_input_usd_per_million, 'cached_input_usd_per_million') ?? null,
    per_request_micros: parseOptionalUsdAmountMicros(request.usd_per_request, 'usd_per_request') ?? null,
    updated_at: deps.clock.nowMs(),
  });
  await bumpCacheVersion(deps.db, 'account_terms');
  await deps.accountTerms.reload();
  return getOperatorUser(deps, input.userId);
}

/** Removes an account's own price for a model: the price list's applies again. */
export async function removeAccountModelPrice(
  deps: AccountTermsWriteDeps,
  input: { userId: string; modelId: string },
): Promise<OperatorUserDetail> {
  if (!(await deleteAccountModelPrice(deps.db, input))) {
    throw new NotFoundError(`The account has no own price for \`${input.modelId}\`.`);
  }
  await bumpCacheVersion(deps.db, 'account_terms');
  await deps.accountTerms.reload();
  return getOperatorUser(deps, input.userId);
}
