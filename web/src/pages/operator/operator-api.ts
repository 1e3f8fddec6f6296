import {
  balanceAdjustmentSchema,
  imagePriceTierListSchema,
  operatorUsagePageSchema,
  operatorUserListSchema,
  operatorUserSchema,
  priceChangeListSchema,
  priceChangeSchema,
  revenueReportSchema,
  type BalanceAdjustment,
  type BalanceAdjustmentRequest,
  type ImagePriceTierList,
  type ImagePriceTierRequest,
  type ModelPriceRequest,
  type OperatorUsagePage,
  type OperatorUser,
  type OperatorUserList,
  type PriceChange,
  type PriceChangeList,
  type RevenueReport,
} from '../../../../contract/operator.ts';
import {
  subscriptionPlanListSchema,
  subscriptionPlanSchema,
  type CreateSubscriptionPlanRequest,
  type SubscriptionPlan,
  type SubscriptionPlanList,
  type UpdateSubscriptionPlanRequest,
} from '../../../../contract/subscriptions.ts';
import {
  operatorRouteListSchema,
  operatorRouteSchema,
  type CreateRouteRequest,
  type OperatorRoute,
  type OperatorRouteList,
  type UpdateRouteRequest,
} from '../../../../contract/operator-routes.ts';
import { getJson, sendJson, type RequestOptions } from '../../api/api-client.ts';

/** The operator API's typed client (`/api/operator`); every call needs an admin session. */
export const listUsers = (email: string, options: RequestOptions = {}): Promise<OperatorUserList> =>
  getJson(`/api/operator/users${email ? `?email=${encodeURIComponent(email)}` : ''}`, operatorUserListSchema, options);

export const setUserStatus = (userId: string, status: OperatorUser['status']): Promise<OperatorUser> =>
  sendJson(`/api/operator/users/${encodeURIComponent(userId)}/status`, operatorUserSchema, {
    method: 'POST',
    body: { status },
  });

export const adjustBalance = (userId: string, request: BalanceAdjustmentRequest): Promise<BalanceAdjustment> =>
  sendJson(`/api/operator/users/${encodeURIComponent(userId)}/adjustments`, balanceAdjustmentSchema, {
    method: 'POST',
    body: request,
  });

export const setModelPrice = (modelId: string, request: ModelPriceRequest): Promise<PriceChange> =>
  sendJson(`/api/operator/models/${encodeURIComponent(modelId)}/price`, priceChangeSchema, {
    method: 'POST',
    body: request,
  });

export const listPriceHistory = (modelId: string, options: RequestOptions = {}): Promise<PriceChangeList> =>
  getJson(`/api/operator/models/${encodeURIComponent(modelId)}/prices`, priceChangeListSchema, options);

const imageTiersPath = (modelId: string) => `/api/operator/models/${encodeURIComponent(modelId)}/image-tiers`;

export const listImageTiers = (modelId: string, options: RequestOptions = {}): Promise<ImagePriceTierList> =>
  getJson(imageTiersPath(modelId), imagePriceTierListSchema, options);

export const setImageTier = (modelId: string, request: ImagePriceTierRequest): Promise<ImagePriceTierList> =>
  sendJson(imageTiersPath(modelId), imagePriceTierListSchema, { method: 'POST', body: request });

/** Removes the tier of that quality and size (null: the tier matching any). */
export const removeImageTier = (
  modelId: string,
  tier: { quality: string | null; size: string | null },
): Promise<ImagePriceTierList> => {
  const query = new URLSearchParams();
  if (tier.quality !== null) query.set('quality', tier.quality);
  if (tier.size !== null) query.set('size', tier.size);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return sendJson(`${imageTiersPath(modelId)}${search}`, imagePriceTierListSchema, { method: 'DELETE' });
};

export const listPlans = (options: RequestOptions = {}): Promise<SubscriptionPlanList> =>
  getJson('/api/operator/plans', subscriptionPlanListSchema, options);

export const createPlan = (request: CreateSubscriptionPlanRequest): Promise<SubscriptionPlan> =>
  sendJson('/api/operator/plans', subscriptionPlanSchema, { method: 'POST', body: request });

export const updatePlan = (planId: string, request: UpdateSubscriptionPlanRequest): Promise<SubscriptionPlan> =>
  sendJson(`/api/operator/plans/${encodeURIComponent(planId)}`, subscriptionPlanSchema, {
    method: 'POST',
    body: request,
  });

export const getRevenue = (options: RequestOptions = {}): Promise<RevenueReport> =>
  getJson('/api/operator/revenue', revenueReportSchema, options);

export const listRoutes = (options: RequestOptions = {}): Promise<OperatorRouteList> =>
  getJson('/api/operator/routes', operatorRouteListSchema, options);

export const createRoute = (request: CreateRouteRequest): Promise<OperatorRoute> =>
  sendJson('/api/operator/routes', operatorRouteSchema, { method: 'POST', body: request });

export const updateRoute = (routeId: string, request: UpdateRouteRequest): Promise<OperatorRoute> =>
  sendJson(`/api/operator/routes/${encodeURIComponent(routeId)}`, operatorRouteSchema, {
    method: 'PATCH',
    body: request,
  });

export const listRecentCalls = (options: RequestOptions = {}): Promise<OperatorUsagePage> =>
  getJson('/api/operator/usage?limit=20', operatorUsagePageSchema, options);
