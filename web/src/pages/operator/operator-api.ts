import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type {
  ApplyModelSyncRequest,
  ModelSyncReport,
  ModelSyncResult,
  ModelSyncSettings,
} from '../../../../contract/operator-model-sync.ts';
import type {
  BalanceAdjustment,
  BalanceAdjustmentRequest,
  ImagePriceTierList,
  ImagePriceTierRequest,
  ModelPriceRequest,
  OperatorUsagePage,
  OperatorUser,
  OperatorUserList,
  PriceChange,
  PriceChangeList,
  RevenueReport,
} from '../../../../contract/operator.ts';
import type {
  CreateSubscriptionPlanRequest,
  SubscriptionPlan,
  SubscriptionPlanList,
  UpdateSubscriptionPlanRequest,
} from '../../../../contract/subscriptions.ts';
import type {
  CreateRouteRequest,
  OperatorRoute,
  OperatorRouteList,
  UpdateRouteRequest,
} from '../../../../contract/operator-routes.ts';
import type { CreateModelRequest, OperatorModel, OperatorModelList } from '../../../../contract/operator-models.ts';
import type { RequestOptions } from '../../api/api-client.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';

/** The operator API's typed client (`/api/operator`); every call needs an admin session. */
export const listUsers = (email: string, options: RequestOptions = {}): Promise<OperatorUserList> =>
  callEndpoint(apiEndpoints.listOperatorUsers, { query: { email } }, options);

export const setUserStatus = (userId: string, status: OperatorUser['status']): Promise<OperatorUser> =>
  callEndpoint(apiEndpoints.setUserStatus, { params: { id: userId }, body: { status } });

export const adjustBalance = (userId: string, request: BalanceAdjustmentRequest): Promise<BalanceAdjustment> =>
  callEndpoint(apiEndpoints.adjustBalance, { params: { id: userId }, body: request });

export const setModelPrice = (modelId: string, request: ModelPriceRequest): Promise<PriceChange> =>
  callEndpoint(apiEndpoints.setModelPrice, { params: { id: modelId }, body: request });

export const listPriceHistory = (modelId: string, options: RequestOptions = {}): Promise<PriceChangeList> =>
  callEndpoint(apiEndpoints.listPriceHistory, { params: { id: modelId } }, options);

export const listImageTiers = (modelId: string, options: RequestOptions = {}): Promise<ImagePriceTierList> =>
  callEndpoint(apiEndpoints.listImagePriceTiers, { params: { id: modelId } }, options);

export const setImageTier = (modelId: string, request: ImagePriceTierRequest): Promise<ImagePriceTierList> =>
  callEndpoint(apiEndpoints.setImagePriceTier, { params: { id: modelId }, body: request });

/** Removes the tier of that quality and size (null: the tier matching any). */
export const removeImageTier = (
  modelId: string,
  tier: { quality: string | null; size: string | null },
): Promise<ImagePriceTierList> =>
  callEndpoint(apiEndpoints.removeImagePriceTier, {
    params: { id: modelId },
    query: {
      ...(tier.quality === null ? {} : { quality: tier.quality }),
      ...(tier.size === null ? {} : { size: tier.size }),
    },
  });

export const listPlans = (options: RequestOptions = {}): Promise<SubscriptionPlanList> =>
  callEndpoint(apiEndpoints.listSubscriptionPlans, {}, options);

export const createPlan = (request: CreateSubscriptionPlanRequest): Promise<SubscriptionPlan> =>
  callEndpoint(apiEndpoints.createSubscriptionPlan, { body: request });

export const updatePlan = (planId: string, request: UpdateSubscriptionPlanRequest): Promise<SubscriptionPlan> =>
  callEndpoint(apiEndpoints.updateSubscriptionPlan, { params: { id: planId }, body: request });

export const getRevenue = (options: RequestOptions = {}): Promise<RevenueReport> =>
  callEndpoint(apiEndpoints.getRevenueReport, { query: {} }, options);

export const listRoutes = (options: RequestOptions = {}): Promise<OperatorRouteList> =>
  callEndpoint(apiEndpoints.listRoutes, {}, options);

export const createRoute = (request: CreateRouteRequest): Promise<OperatorRoute> =>
  callEndpoint(apiEndpoints.createRoute, { body: request });

export const updateRoute = (routeId: string, request: UpdateRouteRequest): Promise<OperatorRoute> =>
  callEndpoint(apiEndpoints.updateRoute, { params: { id: routeId }, body: request });

export const listRecentCalls = (options: RequestOptions = {}): Promise<OperatorUsagePage> =>
  callEndpoint(apiEndpoints.listOperatorUsage, { query: { limit: 20 } }, options);

export const listOperatorModels = (options: RequestOptions = {}): Promise<OperatorModelList> =>
  callEndpoint(apiEndpoints.listOperatorModels, {}, options);

export const createModel = (request: CreateModelRequest): Promise<OperatorModel> =>
  callEndpoint(apiEndpoints.createModel, { body: request });

export const retireModel = (modelId: string): Promise<OperatorModel> =>
  callEndpoint(apiEndpoints.retireModel, { params: { id: modelId }, body: {} });

export const restoreModel = (modelId: string): Promise<OperatorModel> =>
  callEndpoint(apiEndpoints.restoreModel, { params: { id: modelId } });

export const previewModelSync = (): Promise<ModelSyncReport> => callEndpoint(apiEndpoints.previewModelSync, {});

export const applyModelSync = (request: ApplyModelSyncRequest): Promise<ModelSyncResult> =>
  callEndpoint(apiEndpoints.applyModelSync, { body: request });

export const getModelSyncSettings = (): Promise<ModelSyncSettings> =>
  callEndpoint(apiEndpoints.getModelSyncSettings, {});

export const setModelSyncSettings = (settings: ModelSyncSettings): Promise<ModelSyncSettings> =>
  callEndpoint(apiEndpoints.setModelSyncSettings, { body: settings });
