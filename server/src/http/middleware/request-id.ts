import type { IdGenerator } from '../../lib/ids.ts';

/** Every response carries `x-request-id`; SDKs surface it (`error.request_id`). An inbound id is not trusted. */
export function createRequestIdGenerator(ids: IdGenerator): () => string {
  return () => ids.newId('req_');
}
