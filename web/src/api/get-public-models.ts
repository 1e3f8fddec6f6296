import { apiEndpoints } from '../../../contract/api-endpoints.ts';
import type { PublicModelList } from '../../../contract/models.ts';
import { callEndpoint } from './call-endpoint.ts';

/** `GET /api/models`: the public price list (no sign-in needed). */
export function getPublicModels(options: { signal?: AbortSignal } = {}): Promise<PublicModelList> {
  return callEndpoint(apiEndpoints.listPublicModels, {}, options);
}
