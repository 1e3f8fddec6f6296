import { anthropicAdapter } from './anthropic/anthropic-adapter.ts';
import { azureAdapter } from './azure/azure-adapter.ts';
import { geminiAdapter } from './gemini/gemini-adapter.ts';
import { createOpenAiCompatibleAdapter } from './openai-compatible/openai-compatible-adapter.ts';
import { openAiAdapter } from './openai/openai-adapter.ts';
import { UpstreamFailureError, type ProviderAdapter } from './provider-adapter.ts';
import { isChatProviderId, type ChatProviderId, type ProviderId } from './provider-id.ts';
import { vertexAdapter } from './vertex/vertex-adapter.ts';

/** Every chat provider type a route can name, and the adapter that speaks its wire format. */
export const providerAdapters = {
  openai: openAiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  deepseek: createOpenAiCompatibleAdapter('deepseek'),
  mistral: createOpenAiCompatibleAdapter('mistral'),
  xai: createOpenAiCompatibleAdapter('xai'),
  groq: createOpenAiCompatibleAdapter('groq'),
  together: createOpenAiCompatibleAdapter('together'),
  openrouter: createOpenAiCompatibleAdapter('openrouter'),
  vllm: createOpenAiCompatibleAdapter('vllm'),
  ollama: createOpenAiCompatibleAdapter('ollama'),
  llamacpp: createOpenAiCompatibleAdapter('llamacpp'),
  azure: azureAdapter,
  vertex: vertexAdapter,
} as const satisfies Record<ChatProviderId, ProviderAdapter>;

/**
 * The chat adapter of a route's provider. An image-only provider (Black Forest Labs) has none: a chat route to it is
 * a misconfigured route, reported as a route failure so the pipeline fails over to the next one.
 */
export function getProviderAdapter(id: ProviderId): ProviderAdapter {
  if (isChatProviderId(id)) return providerAdapters[id];
  throw new UpstreamFailureError({
    kind: 'credential',
    status: 404,
    message: `The upstream provider type \`${id}\` serves no chat models.`,
    vendorCode: 'no_chat_adapter',
  });
}
