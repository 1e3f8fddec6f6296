import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { togetherQuirks } from './together-quirks.ts';

export const togetherVendor: CompatibleVendorDefinition<'TOGETHER_API_KEY'> = {
  chatAdapter: createOpenAiDialectAdapter('together', togetherQuirks),
  quirks: togetherQuirks,
  imageApis: ['openai'],
  embeddingApis: ['openai'],
  publicBaseUrl: 'https://api.together.xyz/v1',
  credentialKey: 'TOGETHER_API_KEY',
  isLocal: false,
  simulatorPath: '/together/v1',
  routeOptions: undefined,
};
