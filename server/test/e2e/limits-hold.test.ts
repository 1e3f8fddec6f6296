import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { readMasterKey } from '../../src/config/master-key.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { callApi, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { testRedisUrl } from '../support/test-redis.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type ErrorBody = { error: { message: string; type: string; code: string; param: string | null } };

/** Small standard limits, so a handful of calls reaches each. */
const environment = {
  DEFAULT_REQUESTS_PER_MINUTE: '5',
  ACCOUNT_REQUESTS_PER_MINUTE: '6',
  ACCOUNT_CONCURRENT_REQUESTS: '2',
  MAX_KEYS_PER_ACCOUNT: '3',
};

const post = (url: string, key: string, content = 'x') =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
  });

async function assertRefused(response: Response, message: RegExp): Promise<void> {
  assert.equal(response.status, 429);
  assert.ok(Number(response.headers.get('retry-after')) >= 1);
  const error = ((await response.json()) as ErrorBody).error;
  assert.equal(error.code, 'rate_limit_exceeded');
  assert.match(error.message, message);
}

async function startSecondNode(gateway: TestGateway): Promise<{ node: RunningGateway; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-limits-node-'));
  const masterKey = readMasterKey({ masterKeyHex: gateway.config.masterKeyHex, dataDir: gateway.config.dataDir });
  const node = await startGateway(
    { ...gateway.config, dataDir, masterKeyHex: masterKey?.key.toString('hex') },
    pino({ level: 'silent' }),
  );
  return {
    node,
    close: async () => {
      await node.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Two slow calls hold both of the account's slots; a third, while they run, is refused; after them, one runs. */
async function assertConcurrencyLimit(urls: readonly [string, string], key: string): Promise<void> {
  const slow = [
    post(urls[0], key, 'slow 1 [sim:delay-first-byte=1500]'),
    post(urls[0], key, 'slow 2 [sim:delay-first-byte=1500]'),
  ];
  await new Promise((resolve) => setTimeout(resolve, 400));
  await assertRefused(await post(urls[1], key, 'third'), /at most 2 at once over all its keys/);
  for (const response of await Promise.all(slow)) assert.equal(response.status, 200);
  assert.equal((await post(urls[1], key, 'after')).status, 200, 'the slots are given back when the calls end');
}

for (const databaseKind of databaseKinds) {
  describe(`limits that hold on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let emailCount = 0;

    before(async () => {
      gateway = await startTestGateway({ databaseKind, environment });
      const email = `hold-operator-${databaseKind}@example.com`;
      await gateway.createUserWithKey({ role: 'admin', email });
      operator = await signIn(gateway.url, { email });
    });
    after(() => gateway.close());

    const newCustomer = async (options: Parameters<TestGateway['createUserWithKey']>[0] = {}) => {
      const email = `hold${++emailCount}-${databaseKind}@example.com`;
      const created = await gateway.createUserWithKey({ email, balanceMicros: 1_000_000, ...options });
      return { ...created, session: await signIn(gateway.url, { email }) };
    };
    const createKey = (session: BrowserSession, body: object) =>
      callApi(gateway.url, '/api/keys', { session, body: { name: 'own', ...body } });

    test('a customer can lower a key’s limit below the standard, never raise it above', async () => {
      const customer = await newCustomer();
      const above = await createKey(customer.session, { requests_per_minute: 6 });
      assert.equal(above.status, 400, above.text);
      const error = (above.json as ErrorBody).error;
      assert.equal(error.code, 'limit_above_account');
      assert.equal(error.param, 'requests_per_minute');
      assert.match(error.message, /at most 5/);
      const lower = await createKey(customer.session, { requests_per_minute: 2 });
      assert.equal(lower.status, 201, lower.text);
      const key = (lower.json as { key: string }).key;
      for (let call = 0; call < 2; call += 1) {
        const response = await post(gateway.url, key);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('x-ratelimit-limit-requests'), '2');
      }
      await assertRefused(await post(gateway.url, key), /this API key: 2 requests per minute/);
    });

    test('the operator’s terms bound every key of the account, including keys set higher before', async () => {
      const customer = await newCustomer({ key: { requestsPerMinute: 5 } });
      const terms = await callApi(gateway.url, `/api/operator/users/${customer.userId}/terms`, {
        session: operator,
        body: { contract_discount_percent: 0, requests_per_minute: 2, tokens_per_minute: null },
      });
      assert.equal(terms.status, 200, terms.text);
      const first = await post(gateway.url, customer.key);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-ratelimit-limit-requests'), '2', 'the smaller of the key’s 5 and the terms’ 2');
      assert.equal((await post(gateway.url, customer.key)).status, 200);
      assert.equal((await post(gateway.url, customer.key)).status, 429);
      const above = await createKey(customer.session, { requests_per_minute: 3 });
      assert.equal(above.status, 400, above.text);
      assert.match((above.json as ErrorBody).error.message, /at most 2/);
    });

    test('all keys of an account share the standard account budget', async () => {
      const customer = await newCustomer();
      const second = await createKey(customer.session, {});
      assert.equal(second.status, 201, second.text);
      const keys = [customer.key, (second.json as { key: string }).key];
      for (let call = 0; call < 6; call += 1) assert.equal((await post(gateway.url, keys[call % 2]!)).status, 200);
      await assertRefused(await post(gateway.url, keys[0]!), /this account: 6 requests per minute over all its keys/);
    });

    test('an account holds at most MAX_KEYS_PER_ACCOUNT usable keys', async () => {
      const customer = await newCustomer();
      const made: string[] = [];
      for (let index = 0; index < 2; index += 1) {
        const created = await createKey(customer.session, {});
        assert.equal(created.status, 201, created.text);
        made.push((created.json as { id: string }).id);
      }
      const refused = await createKey(customer.session, {});
      assert.equal(refused.status, 400, refused.text);
      assert.equal((refused.json as ErrorBody).error.code, 'too_many_api_keys');
      const revoked = await callApi(gateway.url, `/api/keys/${made[0]}`, {
        session: customer.session,
        method: 'DELETE',
      });
      assert.equal(revoked.status, 200, revoked.text);
      assert.equal((await createKey(customer.session, {})).status, 201, 'a revoked key frees its place');
    });

    test('a bad request counts against the request budget, and over it gets the 429, not its 400', async () => {
      const customer = await newCustomer();
      const postBad = () =>
        fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${customer.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: 'not a list' }),
        });
      for (let call = 0; call < 5; call += 1) {
        const refused = await postBad();
        assert.equal(refused.status, 400);
        assert.equal(((await refused.json()) as ErrorBody).error.param, 'messages');
        assert.equal(refused.headers.get('x-ratelimit-remaining-requests'), String(4 - call));
      }
      // The bad requests took the key's budget (and five of the account's six): both kinds of call are refused now.
      await assertRefused(await postBad(), /requests per minute/);
      await assertRefused(await post(gateway.url, customer.key), /requests per minute/);
    });

    test('an account runs at most ACCOUNT_CONCURRENT_REQUESTS calls at once', async () => {
      const customer = await newCustomer();
      await assertConcurrencyLimit([gateway.url, gateway.url], customer.key);
    });

    test('legacy /v1/completions calls take a slot of the same limit as chat calls', async () => {
      const customer = await newCustomer();
      const complete = (prompt: string) =>
        fetch(`${gateway.url}/v1/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${customer.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', prompt }),
        });
      const slow = [complete('slow 1 [sim:delay-first-byte=1500]'), complete('slow 2 [sim:delay-first-byte=1500]')];
      await new Promise((resolve) => setTimeout(resolve, 400));
      await assertRefused(await complete('third'), /at most 2 at once over all its keys/);
      await assertRefused(await post(gateway.url, customer.key, 'fourth'), /at most 2 at once over all its keys/);
      for (const response of await Promise.all(slow)) assert.equal(response.status, 200);
      assert.equal((await complete('after')).status, 200, 'the slots are given back when the calls end');
    });
  });
}

describe('limits that hold across two nodes sharing Redis', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({
      databaseKind: 'postgres',
      environment: { ...environment, REDIS_URL: testRedisUrl() },
    });
  });
  after(() => gateway.close());

  test('the account budget is one budget on every node', async () => {
    const second = await startSecondNode(gateway);
    try {
      const email = 'hold-two-nodes@example.com';
      const { key } = await gateway.createUserWithKey({ email, balanceMicros: 1_000_000 });
      const session = await signIn(gateway.url, { email });
      const created = await callApi(second.node.url, '/api/keys', { session, body: { name: 'second' } });
      assert.equal(created.status, 201, created.text);
      const keys = [key, (created.json as { key: string }).key];
      const urls = [gateway.url, second.node.url];
      for (let call = 0; call < 6; call += 1) {
        assert.equal((await post(urls[call % 2]!, keys[Math.floor(call / 3)]!)).status, 200);
      }
      await assertRefused(await post(urls[1]!, keys[0]!), /this account: 6 requests per minute over all its keys/);
    } finally {
      await second.close();
    }
  });

  test('after Redis’s script cache is flushed mid-run, calls still pass and the budget still counts them', async () => {
    const second = await startSecondNode(gateway);
    const admin = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
    try {
      const { key } = await gateway.createUserWithKey({ balanceMicros: 1_000_000 });
      const urls = [gateway.url, second.node.url];
      for (let call = 0; call < 3; call += 1) assert.equal((await post(urls[call % 2]!, key)).status, 200);
      const refusedBefore = await noScriptCount(admin);
      await admin.script('FLUSH');
      // Both nodes' connections had the scripts: their next EVALSHA is refused and sent again with the text.
      for (let call = 0; call < 2; call += 1) assert.equal((await post(urls[call % 2]!, key)).status, 200);
      assert.ok((await noScriptCount(admin)) > refusedBefore, 'the flush was met by NOSCRIPT and a retry');
      await assertRefused(await post(urls[0]!, key), /5 requests per minute/);
      await assertConcurrencyLimit(
        [gateway.url, second.node.url],
        (await gateway.createUserWithKey({ balanceMicros: 1_000_000 })).key,
      );
    } finally {
      await admin.quit();
      await second.close();
    }
  });

  test('concurrent calls are counted across nodes', async () => {
    const second = await startSecondNode(gateway);
    try {
      const { key } = await gateway.createUserWithKey({ balanceMicros: 1_000_000 });
      await assertConcurrencyLimit([gateway.url, second.node.url], key);
    } finally {
      await second.close();
    }
  });
});

/** How many commands Redis refused with NOSCRIPT since it started. */
async function noScriptCount(redis: Redis): Promise<number> {
  const stats = await redis.info('errorstats');
  return Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(stats)?.[1] ?? 0);
}
