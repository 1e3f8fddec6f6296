import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import type { CompatibleVendorDefinition } from '../vendor-definition.ts';
import { vllmQuirks } from './vllm-quirks.ts';

export const vllmVendor: CompatibleVendorDefinition<undefined> = {
  chatAdapter: createOpenAiDialectAdapter('vllm', vllmQuirks),
  quirks: vllmQuirks,
  imageApis: [],
  publicBaseUrl: undefined,
  credentialKey: undefined,
  isLocal: true,
  simulatorPath: '/vllm/v1',
  routeOptions: undefined,
};
