import type { VendorCredentialKey } from '../config/config.ts';
import type { ProviderId } from '../providers/provider-id.ts';
import { vendors } from '../providers/vendors.ts';

/**
 * Where each provider type lives: its public API root, the environment credential that enables a live route to it,
 * and the path of its simulator (sandbox mode), as each vendor's definition states them.
 */
export type ProviderEndpoint = {
  publicBaseUrl: string | undefined;
  credentialKey: VendorCredentialKey | undefined;
  simulatorPath: string;
};

export const providerEndpoints: Readonly<Record<ProviderId, ProviderEndpoint>> = vendors;
