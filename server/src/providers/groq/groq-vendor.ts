import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { groqQuirks } from './groq-quirks.ts';

export const groqVendor: CompatibleVendorDefinition<'GROQ_API_KEY'> = {
  chatAdapter: createOpenAiDialectAdapter('groq', groqQuirks),
  quirks: groqQuirks,
  imageApis: [],
  publicBaseUrl: 'https://api.groq.com/openai/v1',
  credentialKey: 'GROQ_API_KEY',
  isLocal: false,
  simulatorPath: '/groq/v1',
  routeOptions: undefined,
};
