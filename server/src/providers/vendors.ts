import { anthropicVendor } from './anthropic/anthropic-vendor.ts';
import { azureVendor } from './azure/azure-vendor.ts';
import { bflVendor } from './bfl/bfl-vendor.ts';
import { deepSeekVendor } from './deepseek/deepseek-vendor.ts';
import { geminiVendor } from './gemini/gemini-vendor.ts';
import { groqVendor } from './groq/groq-vendor.ts';
import { llamaCppVendor } from './llamacpp/llamacpp-vendor.ts';
import { mistralVendor } from './mistral/mistral-vendor.ts';
import { ollamaVendor } from './ollama/ollama-vendor.ts';
import { openAiVendor } from './openai/openai-vendor.ts';
import { openRouterVendor } from './openrouter/openrouter-vendor.ts';
import { togetherVendor } from './together/together-vendor.ts';
import type { VendorDefinition } from './vendor-definition.ts';
import { vertexVendor } from './vertex/vertex-vendor.ts';
import { vllmVendor } from './vllm/vllm-vendor.ts';
import { xaiVendor } from './xai/xai-vendor.ts';

/**
 * The one list of vendors, keyed by provider id (the `provider` of a route). Provider ids, the adapter registry,
 * endpoints, credential variables, local servers and image clients are all derived from it, and the simulators'
 * table is checked against its ids; adding a vendor is its folder, a line here and its models in `seed-catalog.ts`
 * (docs/ARCHITECTURE.md, "Adding a vendor"). Each definition is annotated with its type where it is written, so the
 * ids here are known without evaluating the adapters.
 */
export const vendors = {
  openai: openAiVendor,
  anthropic: anthropicVendor,
  gemini: geminiVendor,
  deepseek: deepSeekVendor,
  mistral: mistralVendor,
  xai: xaiVendor,
  groq: groqVendor,
  together: togetherVendor,
  openrouter: openRouterVendor,
  vllm: vllmVendor,
  ollama: ollamaVendor,
  llamacpp: llamaCppVendor,
  azure: azureVendor,
  vertex: vertexVendor,
  bfl: bflVendor,
} as const satisfies Record<string, VendorDefinition>;
