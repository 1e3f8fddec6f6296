import {
  createRouteRequestSchema,
  operatorRouteListSchema,
  operatorRouteSchema,
  updateRouteRequestSchema,
} from '../../../../contract/operator-routes.ts';
import type { AccountApiOperation } from './account-api-operations.ts';

const operatorErrors = {
  '401': 'Not signed in, or the session ended',
  '403': 'Not an operator (`operator_only`), missing `x-csrf-token`, or the account is blocked',
};
const route = { name: 'OperatorRoute', schema: operatorRouteSchema };
const invalidRoute =
  'Invalid route: unknown provider or model, bad or private base URL (`private_upstream_refused`), missing credential, negative weight, a setting out of range (`param` names it)';

/** The operator's upstream routes (docs/routing.md). */
export const operatorRouteOperations: readonly AccountApiOperation[] = [
  {
    method: 'get',
    path: '/api/operator/routes',
    operationId: 'listRoutes',
    summary: 'Every upstream route with its live health on this node (healthy, cooling, open); never a credential',
    auth: 'session',
    response: {
      status: '200',
      description: 'The routes',
      json: { name: 'OperatorRouteList', schema: operatorRouteListSchema },
    },
    errors: operatorErrors,
  },
  {
    method: 'post',
    path: '/api/operator/routes',
    operationId: 'createRoute',
    summary: 'Add an upstream route; its credential is sealed with the master key and never shown again',
    auth: 'session',
    body: { name: 'CreateRouteRequest', schema: createRouteRequestSchema },
    response: { status: '201', description: 'The new route', json: route },
    errors: { ...operatorErrors, '400': invalidRoute },
  },
  {
    method: 'patch',
    path: '/api/operator/routes/{id}',
    operationId: 'updateRoute',
    summary:
      'Change a route’s settings, credential or address, or enable or disable it; a route from the configuration or the sandbox can only be enabled or disabled',
    auth: 'session',
    pathParameters: ['id'],
    body: { name: 'UpdateRouteRequest', schema: updateRouteRequestSchema },
    response: { status: '200', description: 'The route as changed', json: route },
    errors: { ...operatorErrors, '400': invalidRoute, '404': 'No route has this id' },
  },
];
