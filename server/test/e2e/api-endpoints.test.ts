import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { callApi, signIn, type ApiResponse, type BrowserSession } from '../support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type Operation = { security: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

/** Fastify announces every instance it creates on this channel, before any route is added to it. */
const fastifyCreated = 'fastify.initialization';

describe('the account and operator API table', () => {
  const routesByInstance: Array<Set<string>> = [];
  const watchRoutes = (message: unknown) => {
    const routes = new Set<string>();
    routesByInstance.push(routes);
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
    });
  };
  let gateway: TestGateway;
  let document: OpenApiDocument;
  let operator: BrowserSession;

  before(async () => {
    diagnostics.subscribe(fastifyCreated, watchRoutes);
    try {
      gateway = await startTestGateway();
    } finally {
      diagnostics.unsubscribe(fastifyCreated, watchRoutes);
    }
    document = (await (await fetch(`${gateway.url}/api/openapi.json`)).json()) as OpenApiDocument;
    await gateway.createUserWithKey({ role: 'admin', email: 'table-operator@example.com' });
    operator = await signIn(gateway.url, { email: 'table-operator@example.com' });
  });
  after(() => gateway.close());

  const documented = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );

  test('every route the gateway registers under /api is in the OpenAPI document, and every documented one is served', () => {
    const served = routesByInstance.find((routes) => routes.has('GET /api/openapi.json'));
    assert.ok(served, 'no Fastify instance registered GET /api/openapi.json');
    const described = new Set(
      documented().map(({ path, method }) => `${method.toUpperCase()} ${path.replaceAll(/\{(\w+)\}/g, ':$1')}`),
    );
    const servedApi = [...served].filter((route) => /^[A-Z]+ \/api\//.test(route) && !route.startsWith('HEAD '));
    assert.ok(servedApi.length >= 45, `only ${servedApi.length} /api routes`);
    assert.deepEqual(servedApi.filter((route) => !described.has(route)).sort(), [], 'served but not documented');
    assert.deepEqual([...described].filter((route) => !served.has(route)).sort(), [], 'documented but not served');
  });

  test('every operation answers an anonymous caller and an operator with a documented status and body', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'gateway-api', components: document.components });
    const problemsOf = (operation: Operation, response: ApiResponse): string[] => {
      const documentedAnswer = operation.responses[String(response.status)];
      if (!documentedAnswer) return [`undocumented status ${response.status}: ${response.text.slice(0, 200)}`];
      const json = documentedAnswer.content?.['application/json'];
      if (!json) return [];
      const reference = (json.schema as { $ref: string }).$ref;
      const validate = ajv.getSchema(`gateway-api${reference}`);
      assert.ok(validate, reference);
      return validate(response.json)
        ? []
        : [`${response.status} body off ${reference}: ${ajv.errorsText(validate.errors)}`];
    };
    const problems: string[] = [];
    // Signing out last, so the operator's session serves every other call.
    const operations = documented().sort(
      (first, second) => Number(first.path === '/api/auth/logout') - Number(second.path === '/api/auth/logout'),
    );
    for (const { path, method, operation } of operations) {
      const url = path.replaceAll(/\{(\w+)\}/g, 'no-such-thing');
      const body = method === 'get' || method === 'delete' ? {} : { body: {} };
      for (const session of [undefined, operator]) {
        const response = await callApi(gateway.url, url, {
          method: method.toUpperCase(),
          ...body,
          ...(session ? { session } : {}),
        });
        const who = session ? 'operator' : 'anonymous';
        problems.push(...problemsOf(operation, response).map((problem) => `${method} ${path} (${who}): ${problem}`));
      }
    }
    assert.deepEqual(problems, []);
  });
});
