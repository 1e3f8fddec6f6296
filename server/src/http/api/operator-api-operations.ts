import type { ApiEndpoint } from '../../../../contract/api-endpoint.ts';
import { apiEndpoints } from '../../../../contract/api-endpoints.ts';

/** The operator endpoints of the table (admin sessions only), for the code and tests that walk them all. */
export const operatorApiOperations: readonly ApiEndpoint[] = Object.values(apiEndpoints).filter(
  (endpoint) => endpoint.auth === 'operator',
);
