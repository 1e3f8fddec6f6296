import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { openRouterQuirks } from './openrouter-quirks.ts';

export const openRouterVendor: CompatibleVendorDefinition<'OPENROUTER_API_KEY'> = {
  chatAdapter: createOpenAiDialectAdapter('openrouter', openRouterQuirks),
  quirks: openRouterQuirks,
  imageApis: [],
  publicBaseUrl: 'https://openrouter.ai/api/v1',
  credentialKey: 'OPENROUTER_API_KEY',
  isLocal: false,
  simulatorPath: '/openrouter/api/v1',
  routeOptions: undefined,
};
