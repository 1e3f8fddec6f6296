import type { CatalogModel, PriceList } from '../catalog/price-list.ts';
import { modelNotFoundFor, modelRetiredError } from '../errors/model-not-found-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import type { Caller } from './authenticate.ts';

/**
 * The requested model from the live price list, if it exists, has the right kind and the key may use it, at the
 * rates of the caller's account.
 */
export function resolveModel(
  deps: { priceList: PriceList; accountTerms: Pick<AccountTerms, 'priceModel'> },
  input: { caller: Caller; modelId: string; kind: CatalogModel['kind'] },
): CatalogModel {
  const model = deps.priceList.find(input.modelId);
  const retired = model ? undefined : deps.priceList.findRetired(input.modelId);
  if (retired) throw modelRetiredError(retired.id, retired.successorId);
  if (!model || model.kind !== input.kind) {
    throw modelNotFoundFor(input.modelId, model ? ` as a ${input.kind} model` : '');
  }
  const allowed = input.caller.key.allowedModels;
  if (allowed && !allowed.has(model.id)) {
    throw new PermissionDeniedError(`This API key may not use the model \`${model.id}\`.`, {
      code: 'model_not_allowed',
      param: 'model',
    });
  }
  // The caller's own rates (operator price, contract or subscription discount): the hold, the charge and
  // `usage.cost` are all computed from the model returned here.
  return deps.accountTerms.priceModel(input.caller.userId, model);
}
