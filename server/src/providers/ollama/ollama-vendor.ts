import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { ollamaQuirks } from './ollama-quirks.ts';

export const ollamaVendor: CompatibleVendorDefinition<undefined> = {
  chatAdapter: createOpenAiDialectAdapter('ollama', ollamaQuirks),
  quirks: ollamaQuirks,
  imageApis: [],
  publicBaseUrl: undefined,
  credentialKey: undefined,
  isLocal: true,
  simulatorPath: '/ollama/v1',
  routeOptions: undefined,
};
