import type { ProviderId } from '../providers/provider-id.ts';
import type { EmbeddingApi } from '../providers/vendor-definition.ts';
import { vendors } from '../providers/vendors.ts';
import type { EmbeddingClient } from './embedding-client.ts';
import { embedGemini } from './vendors/embed-gemini.ts';
import { embedOpenAi } from './vendors/embed-openai.ts';

/** The client of each embedding API; which vendors serve one is in their definitions (`embeddingApis`). */
const embeddingClients = {
  openai: embedOpenAi,
  gemini: embedGemini,
} as const satisfies Record<EmbeddingApi, EmbeddingClient>;

/** The client a route of the given provider type embeds with, or undefined when it serves no embedding API. */
export function findEmbeddingClient(provider: ProviderId): EmbeddingClient | undefined {
  const vendor: { embeddingApis?: readonly EmbeddingApi[] } = vendors[provider];
  const api = vendor.embeddingApis?.[0];
  return api === undefined ? undefined : embeddingClients[api];
}
