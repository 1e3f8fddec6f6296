import { familyVendors, modelFamilies, type ModelFamily } from '../config/seed-catalog.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { isProviderId, providerIds, type ProviderId } from '../providers/provider-id.ts';

/** A vendor family the catalogue knows (any letter case), or a 400 `unknown_family` listing them. */
export function parseModelFamily(family: string): ModelFamily {
  const known = modelFamilies.find((candidate) => candidate.toLowerCase() === family.trim().toLowerCase());
  if (!known) {
    throw new InvalidRequestError(`Unknown model family "${family}"; expected one of: ${modelFamilies.join(', ')}.`, {
      param: 'family',
      code: 'unknown_family',
    });
  }
  return known;
}

/** A vendor id of `providers/vendors.ts`, or a 400 naming the ones there are. */
export function parseModelProvider(provider: string): ProviderId {
  if (!isProviderId(provider)) {
    throw new InvalidRequestError(`Unknown provider "${provider}"; expected one of: ${providerIds.join(', ')}.`, {
      param: 'provider',
    });
  }
  return provider;
}

/** The vendor whose own API serves a family's models unless the operator names another. */
export function findFamilyVendor(family: ModelFamily): ProviderId {
  return familyVendors[family];
}

export type { ModelFamily };
