import { operatorErrors, sessionErrors, type ApiEndpoint } from './api-endpoint.ts';
import {
  accountSubscriptionSchema,
  autoRenewRequestSchema,
  buySubscriptionRequestSchema,
  createSubscriptionPlanRequestSchema,
  renewalRunSchema,
  subscriptionPlanListSchema,
  subscriptionPlanSchema,
  subscriptionPurchaseSchema,
  updateSubscriptionPlanRequestSchema,
} from './subscriptions.ts';

const accountSubscription = { name: 'AccountSubscription', schema: accountSubscriptionSchema };
const plan = { name: 'SubscriptionPlan', schema: subscriptionPlanSchema };

/** The account's subscription, and the operator's plans and renewal pass. */
export const subscriptionEndpoints = {
  getSubscription: {
    method: 'get',
    path: '/api/subscription',
    summary: 'The account’s subscription, the discount its prices get now, and the plans on sale',
    auth: 'session',
    response: { status: 200, description: 'The subscription', json: accountSubscription },
    errors: sessionErrors,
  },
  buySubscription: {
    method: 'post',
    path: '/api/subscription',
    summary: 'Buy a 30-day plan from the balance (or extend the running one); once per `purchase_id`',
    auth: 'session',
    body: { name: 'BuySubscriptionRequest', schema: buySubscriptionRequestSchema },
    response: {
      status: 201,
      description: 'Bought (200 with `is_new: false` when this purchase id was already paid)',
      json: { name: 'SubscriptionPurchase', schema: subscriptionPurchaseSchema },
    },
    errors: {
      ...sessionErrors,
      '400': 'Malformed body',
      '402': 'The balance does not cover the price',
      '404': 'No such plan on sale',
      '409': 'Another plan is running',
    },
  },
  setAutoRenewal: {
    method: 'post',
    path: '/api/subscription/auto-renew',
    summary: 'Switch renewal from the balance at the end of the period on or off',
    auth: 'session',
    body: { name: 'AutoRenewRequest', schema: autoRenewRequestSchema },
    response: { status: 200, description: 'The subscription', json: accountSubscription },
    errors: {
      ...sessionErrors,
      '400': 'Malformed body',
      '404': 'No subscription',
      '409': 'The period has ended (buy again)',
    },
  },
  listSubscriptionPlans: {
    method: 'get',
    path: '/api/operator/plans',
    summary: 'Every subscription plan, on sale or not',
    auth: 'operator',
    response: {
      status: 200,
      description: 'The plans',
      json: { name: 'SubscriptionPlanList', schema: subscriptionPlanListSchema },
    },
    errors: operatorErrors,
  },
  createSubscriptionPlan: {
    method: 'post',
    path: '/api/operator/plans',
    summary: 'A new 30-day plan: name, price, discount up to 40%',
    auth: 'operator',
    body: { name: 'CreateSubscriptionPlanRequest', schema: createSubscriptionPlanRequestSchema },
    response: { status: 201, description: 'The plan', json: plan },
    errors: { ...operatorErrors, '400': 'Invalid name, price or discount' },
  },
  updateSubscriptionPlan: {
    method: 'post',
    path: '/api/operator/plans/{id}',
    summary: 'Change a plan for future purchases and renewals',
    auth: 'operator',
    body: { name: 'UpdateSubscriptionPlanRequest', schema: updateSubscriptionPlanRequestSchema },
    response: { status: 200, description: 'The plan', json: plan },
    errors: { ...operatorErrors, '400': 'Invalid name, price or discount', '404': 'No such plan' },
  },
  renewSubscriptions: {
    method: 'post',
    path: '/api/operator/subscriptions/renew',
    summary: 'Run the renewal pass now (it also runs every minute); each period is paid once',
    auth: 'operator',
    response: {
      status: 200,
      description: 'What the pass did',
      json: { name: 'RenewalRun', schema: renewalRunSchema },
    },
    errors: operatorErrors,
  },
} as const satisfies Record<string, ApiEndpoint>;
