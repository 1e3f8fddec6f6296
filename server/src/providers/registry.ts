import { anthropicAdapter } from './anthropic/anthropic-adapter.ts';
import { geminiAdapter } from './gemini/gemini-adapter.ts';
import { createOpenAiCompatibleAdapter } from './openai-compatible/openai-compatible-adapter.ts';
import { openAiAdapter } from './openai/openai-adapter.ts';
import type { ProviderAdapter } from './provider-adapter.ts';
import type { ProviderId } from './provider-id.ts';

/** Every provider type a route can name, and the adapter that speaks its wire format. */
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
} as const satisfies Record<ProviderId, ProviderAdapter>;

export function getProviderAdapter(id: ProviderId): ProviderAdapter {
  return providerAdapters[id];
}
