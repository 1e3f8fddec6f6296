/** Provider types that serve chat models; each has a chat adapter in `registry.ts`. */
export const chatProviderIds = [
  'openai',
  'anthropic',
  'gemini',
  'deepseek',
  'mistral',
  'xai',
  'groq',
  'together',
  'openrouter',
  'vllm',
  'ollama',
  'llamacpp',
  'azure',
  'vertex',
] as const;
export type ChatProviderId = (typeof chatProviderIds)[number];

/** Provider types that serve image models only (Black Forest Labs); their clients live in `images/`. */
export const imageOnlyProviderIds = ['bfl'] as const;

/** Every upstream provider type a route can use. OpenAI-dialect vendors share one adapter with quirk hooks. */
export const providerIds = [...chatProviderIds, ...imageOnlyProviderIds] as const;
export type ProviderId = (typeof providerIds)[number];

export function isProviderId(value: string): value is ProviderId {
  return (providerIds as readonly string[]).includes(value);
}

export function isChatProviderId(value: string): value is ChatProviderId {
  return (chatProviderIds as readonly string[]).includes(value);
}
