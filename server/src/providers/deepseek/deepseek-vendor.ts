import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { deepSeekQuirks } from './deepseek-quirks.ts';

export const deepSeekVendor: CompatibleVendorDefinition<'DEEPSEEK_API_KEY'> = {
  chatAdapter: createOpenAiDialectAdapter('deepseek', deepSeekQuirks),
  quirks: deepSeekQuirks,
  imageApis: [],
  publicBaseUrl: 'https://api.deepseek.com/v1',
  credentialKey: 'DEEPSEEK_API_KEY',
  isLocal: false,
  simulatorPath: '/deepseek/v1',
  routeOptions: undefined,
};
