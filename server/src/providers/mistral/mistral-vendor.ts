import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { createMistralFimAdapter } from './mistral-fim-adapter.ts';
import { mistralQuirks } from './mistral-quirks.ts';

const chatAdapter = createOpenAiDialectAdapter('mistral', mistralQuirks);

export const mistralVendor: CompatibleVendorDefinition<'MISTRAL_API_KEY'> = {
  chatAdapter,
  createFimAdapter: (suffix) => createMistralFimAdapter(chatAdapter, suffix),
  quirks: mistralQuirks,
  imageApis: [],
  embeddingApis: ['openai'],
  publicBaseUrl: 'https://api.mistral.ai/v1',
  credentialKey: 'MISTRAL_API_KEY',
  isLocal: false,
  simulatorPath: '/mistral/v1',
  routeOptions: undefined,
};
