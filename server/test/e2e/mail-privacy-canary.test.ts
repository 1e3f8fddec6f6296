import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { notifyLowBalances } from '../../src/alerts/notify-low-balances.ts';
import { remindSubscriptionRenewals } from '../../src/alerts/remind-subscription-renewals.ts';
import { callApi, signIn, signUp } from '../support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/**
 * The privacy canary for mail: prompts carrying a unique marker go through the API, then the account mail kinds are
 * triggered (verification, reset, key created, low balance, renewal reminder) and every kept mail (the sandbox
 * outbox: subject, text and HTML), every log line and every audit record is searched for the marker.
 */
describe('no prompt text in mail, logs or audit records', () => {
  const canary = `canary-${randomUUID()}`;
  const logLines: string[] = [];
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ logStream: { write: (line) => void logLines.push(line) } });
  });
  after(() => gateway.close());

  test('every account mail kind, sent after prompts with the marker, carries none of it', async () => {
    const email = `canary-${Date.now()}@example.com`;
    const session = await signUp(gateway.url, { email });
    const key = await callApi(gateway.url, '/api/keys', { session, body: { name: 'canary key' } });
    assert.equal(key.status, 201, key.text);
    const secret = (key.json as { key: string }).key;
    for (const content of [canary, `Repeat this: ${canary}`]) {
      const call = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
      });
      assert.equal(call.status, 200, await call.text());
    }
    const operatorEmail = `canary-operator-${Date.now()}@example.com`;
    await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
    const plan = await callApi(gateway.url, '/api/operator/plans', {
      session: await signIn(gateway.url, { email: operatorEmail }),
      body: { name: 'Canary plan', price_usd: '0.01', discount_percent: 0 },
    });
    assert.equal(plan.status, 201, plan.text);
    const bought = await callApi(gateway.url, '/api/subscription', {
      session,
      body: { plan_id: (plan.json as { id: string }).id, purchase_id: `canary-${Date.now()}`, auto_renew: true },
    });
    assert.equal(bought.status, 201, bought.text);
    const alerts = await callApi(gateway.url, '/api/me/alerts', {
      session,
      method: 'PUT',
      body: { low_balance_usd: 1_000_000 },
    });
    assert.equal(alerts.status, 200, alerts.text);
    const forgot = await callApi(gateway.url, '/api/auth/forgot-password', { body: { email } });
    assert.equal(forgot.status, 204, forgot.text);
    const { deps } = gateway.gateway;
    await notifyLowBalances(deps);
    const nearRenewal = { nowMs: () => Date.now() + 28 * 24 * 60 * 60_000 };
    await remindSubscriptionRenewals({ ...deps, clock: nearRenewal });

    const db = gateway.gateway.database.db;
    const mail = await db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).execute();
    const kinds = new Set(mail.map((row) => row.kind));
    const expected = ['verify-email', 'key-created', 'reset-password', 'balance-low', 'subscription-renewal'];
    for (const kind of expected) assert.ok(kinds.has(kind), `a ${kind} mail was kept (${[...kinds].join(', ')})`);
    for (const row of mail) {
      assert.ok(!`${row.subject}\n${row.text_body}\n${row.html_body}`.includes(canary), `${row.kind} mail`);
    }
    const audit = await db.selectFrom('audit_events').selectAll().execute();
    assert.ok(audit.length > 0, 'the audit log has records to search');
    assert.ok(!JSON.stringify(audit).includes(canary), 'audit records');
    assert.ok(logLines.length > 0, 'the log has lines to search');
    assert.ok(!logLines.join('').includes(canary), 'log lines');
  });
});
