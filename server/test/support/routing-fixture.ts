import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { CreateRouteRequest, OperatorRoute, OperatorRouteList } from '../../../contract/operator-routes.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { callApi, signIn, type ApiResponse, type BrowserSession } from './account-api-client.ts';
import { startTestGateway, type TestGateway } from './start-test-gateway.ts';

/** A sandbox gateway whose operator adds routes pointing at the simulator, and a customer calling it with the SDK. */
export type RoutingFixture = {
  gateway: TestGateway;
  operator: BrowserSession;
  client: OpenAI;
  userId: string;
  simulatorUrl: string;
  /** A base URL of the simulator's OpenAI API, optionally behind a `/_fault/<spec>/` prefix. */
  openAiBase: (fault?: string) => string;
  /** Adds a route through the operator API and returns it. */
  addRoute: (route: Partial<CreateRouteRequest> & { model: string; base_url: string }) => Promise<OperatorRoute>;
  listRoutes: () => Promise<OperatorRoute[]>;
  /** The route a finished request was served by, from its usage record. */
  routeOf: (completionId: string) => Promise<string | null>;
  /** Upstream requests the simulator has received so far. */
  upstreamRequests: () => Promise<number>;
  close: () => Promise<void>;
};

export async function startRoutingFixture(environment: Record<string, string> = {}): Promise<RoutingFixture> {
  const gateway = await startTestGateway({
    environment: { ALLOW_PRIVATE_UPSTREAMS: 'true', ROUTE_RETRY_BUDGET_FLOOR: '1000', ...environment },
  });
  const simulatorUrl = gateway.gateway.simulator?.url;
  assert.ok(simulatorUrl, 'the test gateway runs its simulator');
  const email = `operator-${Date.now()}@example.com`;
  await gateway.createUserWithKey({ role: 'admin', email });
  const operator = await signIn(gateway.url, { email });
  const customer = await gateway.createUserWithKey({ balanceMicros: 50_000_000 });
  const client = new OpenAI({ apiKey: customer.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const ok = (response: ApiResponse, status: number) => {
    assert.equal(response.status, status, response.text);
    return response.json;
  };
  return {
    gateway,
    operator,
    client,
    userId: customer.userId,
    simulatorUrl,
    openAiBase: (fault) =>
      fault === undefined
        ? `${simulatorUrl}/openai/v1`
        : `${simulatorUrl}/_fault/${encodeURIComponent(fault)}/openai/v1`,
    addRoute: async (route) => {
      const body = { provider: 'openai', api_key: 'sk-simulated-route-key', upstream_model: route.model, ...route };
      const response = await callApi(gateway.url, '/api/operator/routes', { body, session: operator });
      return ok(response, 201) as OperatorRoute;
    },
    listRoutes: async () => {
      const response = await callApi(gateway.url, '/api/operator/routes', { session: operator });
      return (ok(response, 200) as OperatorRouteList).data;
    },
    routeOf: async (completionId) => {
      const record = await findUsageRecord(gateway.gateway.database.db, completionId.replace(/^chatcmpl-/, ''));
      assert.ok(record, `a usage record for ${completionId}`);
      return record.route_id;
    },
    upstreamRequests: async () => {
      const stats = (await (await fetch(`${simulatorUrl}/_sim/stats`)).json()) as { totalRequests: number };
      return stats.totalRequests;
    },
    close: () => gateway.close(),
  };
}
