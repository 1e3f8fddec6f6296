import type { ImageOnlyVendorDefinition } from '../vendor-definition.ts';

/** Black Forest Labs serves image models only; its client is `images/vendors/bfl/`. */
export const bflVendor: ImageOnlyVendorDefinition<'BFL_API_KEY'> = {
  chatAdapter: undefined,
  imageApis: ['bfl'],
  publicBaseUrl: 'https://api.bfl.ai',
  credentialKey: 'BFL_API_KEY',
  isLocal: false,
  simulatorPath: '/bfl',
  routeOptions: undefined,
};
