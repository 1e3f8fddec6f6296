import { assertNever } from '../providers/shared/assert-never.ts';
import type { ProviderId } from '../providers/provider-id.ts';
import type { ImageClient } from './image-client.ts';
import type { ImageApi } from './image-profiles.ts';
import { generateBflImages } from './vendors/bfl/generate-bfl-images.ts';
import { generateGeminiImage } from './vendors/gemini/generate-gemini-image.ts';
import { generateImagenImages } from './vendors/imagen/generate-imagen-images.ts';
import { generateOpenAiImages } from './vendors/openai/generate-openai-images.ts';

/** Provider types that serve OpenAI's `/images/generations` on their own API root. */
const openAiImageProviders: ReadonlySet<ProviderId> = new Set(['openai', 'xai', 'together']);

/**
 * The client that speaks a model's image API on a route of the given provider type, or undefined when that route
 * cannot serve it (a misconfigured route: the caller skips it and fails over).
 */
export function findImageClient(api: ImageApi, provider: ProviderId): ImageClient | undefined {
  switch (api) {
    case 'openai':
      return openAiImageProviders.has(provider) ? generateOpenAiImages : undefined;
    case 'gemini-image':
      return provider === 'gemini' ? generateGeminiImage : undefined;
    case 'imagen':
      return provider === 'gemini' ? generateImagenImages : undefined;
    case 'bfl':
      return provider === 'bfl' ? generateBflImages : undefined;
    default:
      return assertNever(api);
  }
}
