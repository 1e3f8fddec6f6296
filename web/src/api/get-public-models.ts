import { publicModelListSchema, type PublicModelList } from '../../../contract/models.ts';
import { getJson } from './api-client.ts';

/** `GET /api/models`: the public price list (no sign-in needed). */
export function getPublicModels(options: { signal?: AbortSignal } = {}): Promise<PublicModelList> {
  return getJson('/api/models', publicModelListSchema, options);
}
