import type { ProviderId } from '../providers/provider-id.ts';
import type { ImageApi } from '../providers/vendor-definition.ts';
import { vendors } from '../providers/vendors.ts';
import type { ImageClient } from './image-client.ts';
import { generateBflImages } from './vendors/bfl/generate-bfl-images.ts';
import { generateGeminiImage } from './vendors/gemini/generate-gemini-image.ts';
import { generateImagenImages } from './vendors/gemini/generate-imagen-images.ts';
import { generateOpenAiImages } from './vendors/openai/generate-openai-images.ts';

/** The client of each image API; which vendors serve an API is in their definitions (`imageApis`). */
const imageClients = {
  openai: generateOpenAiImages,
  'gemini-image': generateGeminiImage,
  imagen: generateImagenImages,
  bfl: generateBflImages,
} as const satisfies Record<ImageApi, ImageClient>;

/**
 * The client that speaks a model's image API on a route of the given provider type, or undefined when that route
 * cannot serve it (a misconfigured route: the caller skips it and fails over).
 */
export function findImageClient(api: ImageApi, provider: ProviderId): ImageClient | undefined {
  return vendors[provider].imageApis.includes(api) ? imageClients[api] : undefined;
}
