import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { llamaCppQuirks } from './llamacpp-quirks.ts';

export const llamaCppVendor: CompatibleVendorDefinition<undefined> = {
  chatAdapter: createOpenAiDialectAdapter('llamacpp', llamaCppQuirks),
  quirks: llamaCppQuirks,
  imageApis: [],
  publicBaseUrl: undefined,
  credentialKey: undefined,
  isLocal: true,
  simulatorPath: '/llamacpp/v1',
  routeOptions: undefined,
};
