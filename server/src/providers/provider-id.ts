/** Every upstream provider type a route can use. OpenAI-dialect vendors share one adapter with quirk hooks. */
export const providerIds = [
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
] as const;
export type ProviderId = (typeof providerIds)[number];

export function isProviderId(value: string): value is ProviderId {
  return (providerIds as readonly string[]).includes(value);
}
