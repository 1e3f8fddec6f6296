import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { notifyLowBalances } from '../../src/alerts/notify-low-balances.ts';
import { remindSubscriptionRenewals } from '../../src/alerts/remind-subscription-renewals.ts';
import { callApi, signIn, signUp } from '../support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { startTestSmtpServer } from '../support/test-smtp-server.ts';

/**
 * The privacy canary for mail: prompts carrying a unique marker go through the API, then the account mail kinds are
 * triggered (verification, reset, key created, low balance, renewal reminder), and every mail (kept in the sandbox
 * outbox, or received by a real SMTP server on loopback), every log line and every audit record is searched for it.
 */
const mailKinds = ['verify-email', 'key-created', 'reset-password', 'balance-low', 'subscription-renewal'];

/** Signs up, calls `/v1` with the marker, then makes the gateway write every account mail kind to the account. */
async function sendCanaryThenEveryMail(gateway: TestGateway, canary: string): Promise<string> {
  const email = `canary-${randomUUID()}@example.com`;
  const session = await signUp(gateway.url, { email });
  const key = await callApi(gateway.url, '/api/keys', { session, body: { name: 'canary key' } });
  assert.equal(key.status, 201, key.text);
  for (const content of [canary, `Repeat this: ${canary}`]) {
    const call = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(key.json as { key: string }).key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
    });
    assert.equal(call.status, 200, await call.text());
  }
  const operatorEmail = `canary-operator-${randomUUID()}@example.com`;
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
  assert.equal(await notifyLowBalances(deps), 1);
  assert.equal(await remindSubscriptionRenewals({ ...deps, clock: { nowMs: () => Date.now() + 28 * 86_400_000 } }), 1);
  return email;
}

async function assertNoCanaryInLogsOrAudit(gateway: TestGateway, logLines: readonly string[], canary: string) {
  const audit = await gateway.gateway.database.db.selectFrom('audit_events').selectAll().execute();
  assert.ok(audit.length > 0, 'the audit log has records to search');
  assert.ok(!JSON.stringify(audit).includes(canary), 'audit records');
  assert.ok(logLines.length > 0, 'the log has lines to search');
  assert.ok(!logLines.join('').includes(canary), 'log lines');
}

describe('no prompt text in mail, logs or audit records', () => {
  const canary = `canary-${randomUUID()}`;
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers) await close();
  });

  test('mail kept in the sandbox outbox', async () => {
    const logLines: string[] = [];
    const gateway = await startTestGateway({ logStream: { write: (line) => void logLines.push(line) } });
    closers.push(() => gateway.close());
    const email = await sendCanaryThenEveryMail(gateway, canary);
    const db = gateway.gateway.database.db;
    const mail = await db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).execute();
    const kinds = new Set(mail.map((row) => row.kind));
    for (const kind of mailKinds) assert.ok(kinds.has(kind), `a ${kind} mail was kept (${[...kinds].join(', ')})`);
    for (const row of mail) {
      assert.ok(!`${row.subject}\n${row.text_body}\n${row.html_body}`.includes(canary), `${row.kind} mail`);
    }
    await assertNoCanaryInLogsOrAudit(gateway, logLines, canary);
  });

  test('mail received by an SMTP server on loopback', async () => {
    const smtp = await startTestSmtpServer();
    closers.push(() => smtp.close());
    const logLines: string[] = [];
    const gateway = await startTestGateway({
      environment: smtp.environment,
      logStream: { write: (line) => void logLines.push(line) },
    });
    closers.push(() => gateway.close());
    const email = await sendCanaryThenEveryMail(gateway, canary);
    const received = [];
    for (const _kind of mailKinds) received.push(await smtp.waitForMail(email, { timeoutMs: 10_000 }));
    for (const mail of received) {
      assert.ok(!`${mail.subject}\n${mail.text}\n${mail.html}`.includes(canary), `mail "${mail.subject}"`);
    }
    assert.ok(!smtp.received.some((mail) => `${mail.subject}${mail.text}${mail.html}`.includes(canary)));
    await assertNoCanaryInLogsOrAudit(gateway, logLines, canary);
  });
});
