import type { ModelFamily } from '../config/seed-catalog.ts';
import type { ProviderId } from '../providers/provider-id.ts';

/** The genai-prices provider whose prices a vendor's own API bills (its id in the data file). */
export const priceDataProviderIds: Readonly<Partial<Record<ProviderId, string>>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'google',
  deepseek: 'deepseek',
  xai: 'x-ai',
  mistral: 'mistral',
  groq: 'groq',
  openrouter: 'openrouter',
  together: 'together',
};

/**
 * The families whose vendor serves only the family's own models, so that a model its list or its price data names
 * and the catalogue lacks is a new model of the family. Families reached through a host of many (Meta, Qwen,
 * Moonshot on Groq or OpenRouter) get price changes and unlisted models from a sync, never new models.
 */
export const ownVendorFamilies: Readonly<Partial<Record<ModelFamily, ProviderId>>> = {
  OpenAI: 'openai',
  Anthropic: 'anthropic',
  Google: 'gemini',
  DeepSeek: 'deepseek',
  xAI: 'xai',
  Mistral: 'mistral',
};
