import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OperatorRoute, OperatorRouteList } from '../../../contract/operator-routes.ts';
import { callApi, readError, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { databaseKinds } from '../support/test-databases.ts';

/**
 * Routes the gateway derives from its configuration (here the sandbox's simulator routes) can be switched off and on
 * by the operator, so a sick upstream can be taken out of rotation; nothing else about them changes through the API.
 */
for (const databaseKind of databaseKinds) {
  describe(`switching a sandbox route off and on, on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let customerKey: string;
    const routeId = 'sandbox:gpt-4o';

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      await gateway.createUserWithKey({ role: 'admin', email: `routes-operator-${databaseKind}@example.com` });
      operator = await signIn(gateway.url, { email: `routes-operator-${databaseKind}@example.com` });
      customerKey = (await gateway.createUserWithKey()).key;
    });
    after(() => gateway.close());

    const patch = (id: string, body: unknown) =>
      callApi(gateway.url, `/api/operator/routes/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body,
        session: operator,
      });
    const listRoutes = async () =>
      ((await callApi(gateway.url, '/api/operator/routes', { session: operator })).json as OperatorRouteList).data;
    const callModel = () =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] }),
      });
    const publicModelIds = async () =>
      ((await (await fetch(`${gateway.url}/api/models`)).json()) as { data: { id: string }[] }).data.map(
        (model) => model.id,
      );

    test('the sandbox route is listed as on, and serves calls', async () => {
      const route = (await listRoutes()).find((candidate) => candidate.id === routeId);
      assert.equal(route?.origin, 'sandbox');
      assert.equal(route.enabled, true);
      assert.equal((await callModel()).status, 200);
    });

    test('disabling it takes it out of rotation and out of the price list, and it stays listed as off', async () => {
      const disabled = await patch(routeId, { enabled: false });
      assert.equal(disabled.status, 200, disabled.text);
      assert.equal((disabled.json as OperatorRoute).enabled, false);
      assert.equal((await listRoutes()).find((candidate) => candidate.id === routeId)?.enabled, false);
      const call = await callModel();
      assert.equal(call.status, 502, 'no route serves the model');
      assert.equal(((await call.json()) as { error: { code: string } }).error.code, 'no_route_available');
      assert.ok(!(await publicModelIds()).includes('gpt-4o'), '/api/models lists only models that have a route');
      const rows = await gateway.gateway.database.db.selectFrom('disabled_implicit_routes').selectAll().execute();
      assert.deepEqual(
        rows.map((row) => row.route_id),
        [routeId],
      );
    });

    test('only `enabled` may change; an unknown route is a 404', async () => {
      const weight = await patch(routeId, { weight: 5 });
      assert.equal(weight.status, 400, weight.text);
      assert.equal(readError(weight).param, 'weight');
      const unknown = await patch('sandbox:no-such-model', { enabled: false });
      assert.equal(unknown.status, 404, unknown.text);
      assert.equal(readError(unknown).param, 'id');
    });

    test('enabling it again restores the route, the model and the calls', async () => {
      const enabled = await patch(routeId, { enabled: true });
      assert.equal(enabled.status, 200, enabled.text);
      assert.equal((enabled.json as OperatorRoute).enabled, true);
      assert.equal((await callModel()).status, 200);
      assert.ok((await publicModelIds()).includes('gpt-4o'));
      const rows = await gateway.gateway.database.db.selectFrom('disabled_implicit_routes').selectAll().execute();
      assert.equal(rows.length, 0);
    });
  });
}
