import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { xaiQuirks } from './xai-quirks.ts';

export const xaiVendor: CompatibleVendorDefinition<'XAI_API_KEY'> = {
  chatAdapter: createOpenAiDialectAdapter('xai', xaiQuirks),
  quirks: xaiQuirks,
  imageApis: ['openai'],
  publicBaseUrl: 'https://api.x.ai/v1',
  credentialKey: 'XAI_API_KEY',
  isLocal: false,
  simulatorPath: '/xai/v1',
  routeOptions: undefined,
};
