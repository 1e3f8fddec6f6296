import type { VendorCredentialKey } from '../config/config.ts';
import type { ProviderId } from '../providers/provider-id.ts';

/**
 * Where each provider type lives: its public API root, the environment credential that enables a live route to it,
 * and the path of its simulator (sandbox mode). Local servers (vLLM, Ollama, llama.cpp) have no public root.
 */
export type ProviderEndpoint = {
  publicBaseUrl: string | undefined;
  credentialKey: VendorCredentialKey | undefined;
  simulatorPath: string;
};

export const providerEndpoints = {
  openai: { publicBaseUrl: 'https://api.openai.com/v1', credentialKey: 'OPENAI_API_KEY', simulatorPath: '/openai/v1' },
  anthropic: {
    publicBaseUrl: 'https://api.anthropic.com',
    credentialKey: 'ANTHROPIC_API_KEY',
    simulatorPath: '/anthropic',
  },
  gemini: {
    publicBaseUrl: 'https://generativelanguage.googleapis.com',
    credentialKey: 'GEMINI_API_KEY',
    simulatorPath: '/gemini',
  },
  deepseek: {
    publicBaseUrl: 'https://api.deepseek.com/v1',
    credentialKey: 'DEEPSEEK_API_KEY',
    simulatorPath: '/deepseek/v1',
  },
  mistral: {
    publicBaseUrl: 'https://api.mistral.ai/v1',
    credentialKey: 'MISTRAL_API_KEY',
    simulatorPath: '/mistral/v1',
  },
  xai: { publicBaseUrl: 'https://api.x.ai/v1', credentialKey: 'XAI_API_KEY', simulatorPath: '/xai/v1' },
  groq: { publicBaseUrl: 'https://api.groq.com/openai/v1', credentialKey: 'GROQ_API_KEY', simulatorPath: '/groq/v1' },
  together: {
    publicBaseUrl: 'https://api.together.xyz/v1',
    credentialKey: 'TOGETHER_API_KEY',
    simulatorPath: '/together/v1',
  },
  openrouter: {
    publicBaseUrl: 'https://openrouter.ai/api/v1',
    credentialKey: 'OPENROUTER_API_KEY',
    simulatorPath: '/openrouter/api/v1',
  },
  vllm: { publicBaseUrl: undefined, credentialKey: undefined, simulatorPath: '/vllm/v1' },
  ollama: { publicBaseUrl: undefined, credentialKey: undefined, simulatorPath: '/ollama/v1' },
  llamacpp: { publicBaseUrl: undefined, credentialKey: undefined, simulatorPath: '/llamacpp/v1' },
  // Azure OpenAI and Vertex AI addresses are per customer resource or project: operator routes only.
  azure: { publicBaseUrl: undefined, credentialKey: undefined, simulatorPath: '/azure' },
  vertex: { publicBaseUrl: undefined, credentialKey: undefined, simulatorPath: '/vertex' },
  bfl: { publicBaseUrl: 'https://api.bfl.ai', credentialKey: 'BFL_API_KEY', simulatorPath: '/bfl' },
} as const satisfies Record<ProviderId, ProviderEndpoint>;
