import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type {
  CreatedTopUp,
  TopUpMethodList,
  TopUpOrderList,
  TopUpOrderView,
  TopUpQuoteView,
  TopUpRequest,
  SandboxTransfer,
  SandboxTransferRequest,
} from '../../../../contract/payments.ts';
import type { RequestOptions } from '../../api/api-client.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';

export const quoteTopUp = (request: TopUpRequest, options: RequestOptions = {}): Promise<TopUpQuoteView> =>
  callEndpoint(apiEndpoints.quoteTopUp, { body: request }, options);

export const createTopUp = (request: TopUpRequest): Promise<CreatedTopUp> =>
  callEndpoint(apiEndpoints.createTopUp, { body: request });

export const listTopUps = (options: RequestOptions = {}): Promise<TopUpOrderList> =>
  callEndpoint(apiEndpoints.listTopUps, { query: { limit: 50 } }, options);

export const getTopUp = (id: string, options: RequestOptions = {}): Promise<TopUpOrderView> =>
  callEndpoint(apiEndpoints.getTopUp, { params: { id } }, options);

export const listTopUpMethods = (options: RequestOptions = {}): Promise<TopUpMethodList> =>
  callEndpoint(apiEndpoints.listTopUpMethods, {}, options);

export const sendSandboxTransfer = (id: string, request: SandboxTransferRequest): Promise<SandboxTransfer> =>
  callEndpoint(apiEndpoints.sendSandboxTransfer, { params: { id }, body: request });
