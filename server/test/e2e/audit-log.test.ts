import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { AuditEvent, AuditPage, SecurityEventList } from '../../../contract/audit.ts';
import { callApi, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const password = 'correct horse battery staple';

for (const databaseKind of databaseKinds) {
  describe(`audit log on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let operatorId: string;
    const operatorEmail = `audit-operator-${databaseKind}@example.com`;
    let emailCount = 0;

    before(async () => {
      gateway = await startTestGateway({ databaseKind, environment: { ALLOW_PRIVATE_UPSTREAMS: 'true' } });
      operatorId = (await gateway.createUserWithKey({ role: 'admin', email: operatorEmail })).userId;
      operator = await signIn(gateway.url, { email: operatorEmail });
    });
    after(() => gateway.close());

    const newCustomer = async () => {
      const email = `audit${++emailCount}-${databaseKind}@example.com`;
      const created = await gateway.createUserWithKey({ email });
      return { ...created, email, session: await signIn(gateway.url, { email }) };
    };
    const search = async (query: string): Promise<AuditPage> => {
      const response = await callApi(gateway.url, `/api/operator/audit?${query}`, { session: operator });
      assert.equal(response.status, 200, response.text);
      return response.json as AuditPage;
    };
    const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

    test('a price change is recorded with the operator, the time, the model, and the price before and after', async () => {
      const startedAt = Date.now();
      for (const input of ['0.5', '0.75']) {
        const changed = await callApi(gateway.url, '/api/operator/models/gpt-4o-mini/price', {
          session: operator,
          body: { input_usd_per_million: input, reason: `to ${input}` },
        });
        assert.equal(changed.status, 200, changed.text);
      }
      const page = await search('action=setModelPrice&target_id=gpt-4o-mini');
      const [latest, earlier] = page.data as [AuditEvent, AuditEvent];
      assert.equal(page.data.length, 2);
      assert.equal(latest.category, 'operator');
      assert.deepEqual(latest.actor, { user_id: operatorId, label: operatorEmail });
      assert.deepEqual(latest.target, { kind: 'model', id: 'gpt-4o-mini' });
      assert.ok(Date.parse(latest.occurred_at) >= startedAt - 1000);
      assert.equal((parse(latest.after) as { input_usd_per_million: number }).input_usd_per_million, 0.75);
      assert.equal((parse(latest.before) as { input_usd_per_million: number }).input_usd_per_million, 0.5);
      assert.deepEqual(parse(latest.before), parse(earlier.after), 'the state before is the previous change');
    });

    test('balance adjustments, terms and blocks name the account, with its state before and after', async () => {
      const customer = await newCustomer();
      const adjusted = await callApi(gateway.url, `/api/operator/users/${customer.userId}/adjustments`, {
        session: operator,
        body: { direction: 'credit', amount_micros: 2_000_000, reason: 'goodwill', idempotency_key: 'audit-1' },
      });
      assert.equal(adjusted.status, 201, adjusted.text);
      const blocked = await callApi(gateway.url, `/api/operator/users/${customer.userId}/status`, {
        session: operator,
        body: { status: 'blocked' },
      });
      assert.equal(blocked.status, 200, blocked.text);
      const page = await search(`account_id=${customer.userId}&category=operator`);
      assert.deepEqual(
        page.data.map((event) => event.action),
        ['setUserStatus', 'adjustBalance'],
      );
      const [block, adjustment] = page.data as [AuditEvent, AuditEvent];
      assert.equal((parse(block.before) as { status: string }).status, 'active');
      assert.equal((parse(block.after) as { status: string }).status, 'blocked');
      const balanceBefore = (parse(adjustment.before) as { balance_usd: number }).balance_usd;
      const answer = parse(adjustment.after) as { balance_usd: number; amount_usd: number; transaction_id: string };
      assert.equal(answer.amount_usd, 2);
      assert.equal(answer.balance_usd, balanceBefore + 2);
      assert.equal(answer.transaction_id, (adjusted.json as { transaction_id: string }).transaction_id);
    });

    test('a route change is recorded without its credential', async () => {
      const secret = 'sk-vendor-secret-for-audit-5d1e';
      const created = await callApi(gateway.url, '/api/operator/routes', {
        session: operator,
        body: {
          model: 'gpt-4o',
          provider: 'openai',
          base_url: `${gateway.gateway.simulator?.url}/openai/v1`,
          api_key: secret,
          upstream_model: 'gpt-4o',
        },
      });
      assert.equal(created.status, 201, created.text);
      const routeId = (created.json as { id: string }).id;
      const updated = await callApi(gateway.url, `/api/operator/routes/${routeId}`, {
        session: operator,
        method: 'PATCH',
        body: { weight: 3 },
      });
      assert.equal(updated.status, 200, updated.text);
      const page = await search(`target_kind=route&target_id=${encodeURIComponent(routeId)}`);
      assert.deepEqual(
        page.data.map((event) => event.action),
        ['updateRoute', 'createRoute'],
      );
      assert.equal((parse(page.data[0]!.before) as { weight: number }).weight, 1);
      assert.equal((parse(page.data[0]!.after) as { weight: number }).weight, 3);
      assert.ok(!JSON.stringify(page).includes(secret), 'the credential is never recorded');
    });

    test('records cannot be changed or removed, even through the gateway’s own connection', async () => {
      const db = gateway.gateway.database.db;
      await assert.rejects(sql`update audit_events set action = 'forged'`.execute(db), /append-only/);
      await assert.rejects(sql`delete from audit_events`.execute(db), /append-only/);
    });

    test('the search filters by actor and pages with a cursor; only operators may search', async () => {
      const byActor = await search(`actor=${encodeURIComponent('audit-operator')}&limit=1`);
      assert.equal(byActor.data.length, 1);
      assert.ok(byActor.next_cursor);
      const next = await search(`actor=${encodeURIComponent('audit-operator')}&limit=1&cursor=${byActor.next_cursor}`);
      assert.notEqual(next.data[0]?.id, byActor.data[0]?.id);
      assert.equal((await search('actor=nobody-acted-as-this')).data.length, 0);
      const badCursor = await callApi(gateway.url, '/api/operator/audit?cursor=x', { session: operator });
      assert.equal(badCursor.status, 400);
      const customer = await newCustomer();
      const refused = await callApi(gateway.url, '/api/operator/audit', { session: customer.session });
      assert.equal(refused.status, 403);
    });

    test('a customer sees their own sign-ins, keys and password changes, and nobody else’s', async () => {
      const customer = await newCustomer();
      const other = await newCustomer();
      const key = await callApi(gateway.url, '/api/keys', { session: customer.session, body: { name: 'audited' } });
      assert.equal(key.status, 201, key.text);
      const keyId = (key.json as { id: string }).id;
      const revoked = await callApi(gateway.url, `/api/keys/${keyId}`, { session: customer.session, method: 'DELETE' });
      assert.equal(revoked.status, 200, revoked.text);
      const changed = await callApi(gateway.url, '/api/me/password', {
        session: customer.session,
        body: { current_password: password, new_password: 'another horse battery staple' },
      });
      assert.equal(changed.status, 204, changed.text);
      const events = await callApi(gateway.url, '/api/security-events', { session: customer.session });
      assert.equal(events.status, 200, events.text);
      assert.deepEqual(
        (events.json as SecurityEventList).data.map((event) => event.action),
        ['password_changed', 'api_key_revoked', 'api_key_created', 'signed_in'],
      );
      assert.ok((events.json as SecurityEventList).data.every((event) => event.client_address !== null));
      const others = await callApi(gateway.url, '/api/security-events', { session: other.session });
      assert.deepEqual(
        (others.json as SecurityEventList).data.map((event) => event.action),
        ['signed_in'],
      );
      assert.equal((await callApi(gateway.url, '/api/security-events')).status, 401);
    });
  });
}
