import type { ChatVendorDefinition } from '../vendor-definition.ts';
import { anthropicAdapter } from './anthropic-adapter.ts';

export const anthropicVendor: ChatVendorDefinition<'ANTHROPIC_API_KEY'> = {
  chatAdapter: anthropicAdapter,
  imageApis: [],
  publicBaseUrl: 'https://api.anthropic.com',
  credentialKey: 'ANTHROPIC_API_KEY',
  isLocal: false,
  simulatorPath: '/anthropic',
  routeOptions: undefined,
};
