import type { IdGenerator } from '../../lib/ids.ts';

/**
 * Every response carries `x-request-id`; SDKs surface it (`error.request_id`). An inbound id is not trusted. Time
 * ordered: it keys the call's usage row and ledger transaction, whose indexes then grow at one end (decision 1890).
 */
export function createRequestIdGenerator(ids: IdGenerator): () => string {
  return () => ids.newTimeOrderedId('req_');
}
