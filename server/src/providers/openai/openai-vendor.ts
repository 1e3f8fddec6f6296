import type { ChatVendorDefinition } from '../vendor-definition.ts';
import { openAiAdapter } from './openai-adapter.ts';

export const openAiVendor: ChatVendorDefinition<'OPENAI_API_KEY'> = {
  chatAdapter: openAiAdapter,
  imageApis: ['openai'],
  embeddingApis: ['openai'],
  publicBaseUrl: 'https://api.openai.com/v1',
  credentialKey: 'OPENAI_API_KEY',
  isLocal: false,
  simulatorPath: '/openai/v1',
  routeOptions: undefined,
};
