import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { loadApiKeyCache } from '../../src/accounts/api-key-cache.ts';
import { readMasterKey } from '../../src/config/master-key.ts';
import { startGateway } from '../../src/start-gateway.ts';
import { callApi, signIn } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { testRedisUrl } from '../support/test-redis.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type ErrorBody = { error: { message: string; type: string; code: string; param: string | null } };

/** A day's budget of 0.0003 USD: a few small gpt-4o-mini calls, each held at what the budget leaves. */
const budgetMicros = 300;

const post = (url: string, key: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say something long.' }] }),
  });

async function keyWithBudget(gateway: TestGateway, url: string, email: string): Promise<{ id: string; key: string }> {
  await gateway.createUserWithKey({ email, balanceMicros: 1_000_000 });
  const session = await signIn(gateway.url, { email });
  const created = await callApi(url, '/api/keys', {
    session,
    body: { name: 'budgeted', daily_budget_usd: '0.0003', monthly_budget_usd: '5' },
  });
  assert.equal(created.status, 201, created.text);
  return created.json as { id: string; key: string };
}

/** Many calls at once on the given nodes: some answered, the rest refused up front; the key never spends past it. */
async function assertBudgetHolds(
  gateway: TestGateway,
  urls: readonly string[],
  key: { id: string; key: string },
): Promise<number> {
  const responses = await Promise.all(
    Array.from({ length: 12 }, (_, index) => post(urls[index % urls.length]!, key.key)),
  );
  const statuses = responses.map((response) => response.status);
  assert.ok(statuses.includes(200), `some calls are answered: ${statuses.join(',')}`);
  const refused = responses.filter((response) => response.status === 402);
  assert.ok(refused.length > 0, `the calls past the budget are refused: ${statuses.join(',')}`);
  assert.equal(refused.length + statuses.filter((status) => status === 200).length, 12);
  for (const response of refused) {
    const { error } = (await response.json()) as ErrorBody;
    assert.equal(error.type, 'insufficient_quota');
    assert.equal(error.code, 'key_budget_exceeded');
    assert.match(error.message, /daily budget of 0\.000300 USD/);
    assert.match(error.message, /starts afresh at \d{4}-\d\d-\d\dT00:00:00\.000Z/);
  }
  for (const response of responses) if (response.status === 200) await response.arrayBuffer();
  // What the calls in flight set aside and did not spend comes back: calls one by one use it up, then are refused.
  let status = 200;
  for (let call = 0; call < 50 && status === 200; call += 1) {
    const response = await post(urls[call % urls.length]!, key.key);
    status = response.status;
    await response.arrayBuffer();
  }
  assert.equal(status, 402, 'a spent budget stays spent');
  const spent = await gateway.gateway.database.db
    .selectFrom('usage_records')
    .select((eb) => eb.fn.sum<number | string>('cost_micros').as('micros'))
    .where('api_key_id', '=', key.id)
    .executeTakeFirstOrThrow();
  const spentMicros = Number(spent.micros);
  assert.ok(spentMicros > 0 && spentMicros <= budgetMicros, `spent ${spentMicros} of ${budgetMicros} micro-USD`);
  return spentMicros;
}

async function drawImage(
  url: string,
  key: string,
): Promise<{ status: number; costMicros: number; code: string | undefined }> {
  const response = await fetch(`${url}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'dall-e-3', prompt: 'a lighthouse at dawn', size: '1024x1024', quality: 'standard' }),
  });
  const body = (await response.json()) as { cost?: number; error?: { code: string } };
  return { status: response.status, costMicros: Math.round((body.cost ?? 0) * 1e6), code: body.error?.code };
}

for (const databaseKind of databaseKinds) {
  describe(`key spend budgets on ${databaseKind}`, () => {
    let gateway: TestGateway;
    before(async () => {
      gateway = await startTestGateway({ databaseKind });
    });
    after(() => gateway.close());

    test('calls at once never pass a key’s day budget; the ones that would are a 402 up front', async () => {
      const key = await keyWithBudget(gateway, gateway.url, `budget-${databaseKind}@example.com`);
      await assertBudgetHolds(gateway, [gateway.url], key);
    });

    test('image calls at once share a month budget worth two images: never more than two are charged', async () => {
      const probe = await gateway.createUserWithKey({ balanceMicros: 10_000_000 });
      const oneMicros = await drawImage(gateway.url, probe.key).then((outcome) => outcome.costMicros);
      assert.ok(oneMicros > 0);
      const { key } = await gateway.createUserWithKey({
        balanceMicros: 10_000_000,
        key: { monthlyBudgetMicros: oneMicros * 2 + Math.floor(oneMicros / 2) },
      });
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => drawImage(gateway.url, key)));
      assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), [200, 200, 402, 402, 402, 402]);
      assert.ok(outcomes.every((outcome) => outcome.status === 200 || outcome.code === 'key_budget_exceeded'));
    });

    test('a node that loads the keys afresh (a restart) reads what they spent today from the usage records', async () => {
      const key = await keyWithBudget(gateway, gateway.url, `budget-reload-${databaseKind}@example.com`);
      const spentMicros = await assertBudgetHolds(gateway, [gateway.url], key);
      const loaded = await (await loadApiKeyCache(gateway.gateway.database.db)).findByKey(key.key);
      assert.equal(loaded?.periodSpend.day.micros, spentMicros);
      assert.equal(loaded?.periodSpend.month.micros, spentMicros);
      assert.equal(loaded?.dailyBudgetMicros, budgetMicros);
    });
  });
}

describe('key spend budgets across two nodes sharing Redis', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ databaseKind: 'postgres', environment: { REDIS_URL: testRedisUrl() } });
  });
  after(() => gateway.close());

  test('one budget for the key on every node', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-budget-node-'));
    const masterKey = readMasterKey({ masterKeyHex: gateway.config.masterKeyHex, dataDir: gateway.config.dataDir });
    const second = await startGateway(
      { ...gateway.config, dataDir, masterKeyHex: masterKey?.key.toString('hex') },
      pino({ level: 'silent' }),
    );
    try {
      const key = await keyWithBudget(gateway, second.url, 'budget-two-nodes@example.com');
      await assertBudgetHolds(gateway, [gateway.url, second.url], key);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
