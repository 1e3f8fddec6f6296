import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import pino from 'pino';
import { readMasterKey } from '../../src/config/master-key.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { callApi, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { testRedisUrl } from '../support/test-redis.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type Answer = {
  choices: Array<{ finish_reason: string }>;
  usage: { prompt_tokens: number; completion_tokens: number; cost: number };
};
type ErrorBody = { error: { message: string; type: string; code: string } };

/**
 * About 730 bytes of text: 183 tokens for the simulator, which counts a quarter token per byte plus 4 per message,
 * like the gateway's likely-input estimate (the budgets below rely on their agreeing).
 */
const sizedPrompt = (label: string, words: number) =>
  `${label.padEnd(20, '.')} ${'tokens '.repeat(97)} [sim:words=${words}]`;

const post = (url: string, key: string, body: object) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', ...body }),
  });

/** A second gateway node on the same database (and Redis): its own data directory, the first node's master key. */
async function startSecondNode(gateway: TestGateway): Promise<{ node: RunningGateway; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-second-node-'));
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

/**
 * A key's budget of 1,000 tokens a minute against calls estimated at 183 + 150 = 333 tokens (likely input plus the
 * output limit) that really use 183 + 100 = 283: three fit, each giving back what it did not use; the fourth waits.
 */
async function exhaustTokenBudget(input: { urls: readonly string[]; key: string }) {
  const answered: Response[] = [];
  for (let call = 0; call < 3; call += 1) {
    const url = input.urls[call % input.urls.length]!;
    const response = await post(url, input.key, {
      max_completion_tokens: 150,
      messages: [{ role: 'user', content: sizedPrompt(`call ${call}`, 100) }],
    });
    assert.equal(response.status, 200, await response.clone().text());
    answered.push(response);
  }
  const refused = await post(input.urls.at(-1)!, input.key, {
    max_completion_tokens: 150,
    messages: [{ role: 'user', content: sizedPrompt('call 3', 100) }],
  });
  return { answered, refused };
}

async function assertTokenRefusal(refused: Response, owner: RegExp): Promise<void> {
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  assert.equal(refused.headers.get('x-ratelimit-remaining-tokens'), '0');
  const error = ((await refused.json()) as ErrorBody).error;
  assert.equal(error.type, 'tokens');
  assert.equal(error.code, 'rate_limit_exceeded');
  assert.match(error.message, owner);
}

for (const databaseKind of databaseKinds) {
  describe(`tokens per minute and spend caps on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let emailCount = 0;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      const email = `limits-operator-${databaseKind}@example.com`;
      await gateway.createUserWithKey({ role: 'admin', email });
      operator = await signIn(gateway.url, { email });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const db = () => gateway.gateway.database.db;
    const newUser = async (options: Parameters<TestGateway['createUserWithKey']>[0] = {}) => {
      const email = `limits${++emailCount}-${databaseKind}@example.com`;
      return { ...(await gateway.createUserWithKey({ email, ...options })), email };
    };

    test('a key’s tokens per minute: the estimate is taken, the real count given back, then 429 with headers', async () => {
      const { key, userId } = await newUser({ balanceMicros: 1_000_000, key: { tokensPerMinute: 1_000 } });
      const { answered, refused } = await exhaustTokenBudget({ urls: [gateway.url], key });
      const first = answered[0]!;
      const usage = ((await first.json()) as Answer).usage;
      assert.equal(usage.prompt_tokens, 183);
      assert.equal(first.headers.get('x-ratelimit-limit-tokens'), '1000');
      assert.equal(first.headers.get('x-ratelimit-remaining-tokens'), String(1_000 - 183 - 150));
      assert.match(first.headers.get('x-ratelimit-reset-tokens') ?? '', /^\d+s$/);
      assert.ok(first.headers.get('x-ratelimit-limit-requests'), 'the request budget headers stay');
      const third = answered[2]!;
      // What the first two really used (283 each) and the third's estimate are taken; refills can only add.
      assert.ok(Number(third.headers.get('x-ratelimit-remaining-tokens')) >= 1_000 - 2 * 283 - 333);
      const balanceBefore = await sumLedgerAccount(db(), userLedgerAccount(userId));
      await assertTokenRefusal(refused, /API key: 1000 tokens per minute/);
      assert.equal(await sumLedgerAccount(db(), userLedgerAccount(userId)), balanceBefore, 'a 429 costs nothing');
    });

    test('an output limit larger than the whole token budget is lowered to fit; an input larger is refused', async () => {
      const { key } = await newUser({ balanceMicros: 1_000_000, key: { tokensPerMinute: 300 } });
      const cut = await post(gateway.url, key, { messages: [{ role: 'user', content: sizedPrompt('long', 400) }] });
      assert.equal(cut.status, 200);
      const answer = (await cut.json()) as Answer;
      assert.equal(answer.choices[0]?.finish_reason, 'length');
      assert.equal(answer.usage.prompt_tokens, 183);
      assert.equal(answer.usage.completion_tokens, 300 - 183, 'the output the budget leaves after the input');
      const large = await post(gateway.url, key, {
        messages: [{ role: 'user', content: `${'tokens '.repeat(300)} [sim:words=5]` }],
      });
      await assertTokenRefusal(large, /Request too large/);
    });

    test('an operator’s token budget for an account is shared by all its keys', async () => {
      const customer = await newUser({ balanceMicros: 1_000_000 });
      const set = await callApi(gateway.url, `/api/operator/users/${customer.userId}/terms`, {
        session: operator,
        body: { contract_discount_percent: 0, requests_per_minute: null, tokens_per_minute: 1_000 },
      });
      assert.equal(set.status, 200, set.text);
      assert.equal((set.json as { tokens_per_minute: number }).tokens_per_minute, 1_000);
      const issued = await callApi(gateway.url, '/api/keys', {
        session: await signIn(gateway.url, { email: customer.email }),
        body: { name: 'second' },
      });
      assert.equal(issued.status, 201, issued.text);
      const otherKey = (issued.json as { key: string }).key;
      const calls = [customer.key, otherKey, customer.key];
      for (const [index, key] of calls.entries()) {
        const response = await post(gateway.url, key, {
          max_completion_tokens: 150,
          messages: [{ role: 'user', content: sizedPrompt(`shared ${index}`, 100) }],
        });
        assert.equal(response.status, 200);
      }
      const refused = await post(gateway.url, otherKey, {
        max_completion_tokens: 150,
        messages: [{ role: 'user', content: sizedPrompt('shared 3', 100) }],
      });
      await assertTokenRefusal(refused, /account, over all its keys/);
      const otherAccount = await newUser({ balanceMicros: 1_000_000 });
      const free = await post(gateway.url, otherAccount.key, { messages: [{ role: 'user', content: 'x' }] });
      assert.equal(free.status, 200, 'another account is not limited by it');
      assert.equal(
        free.headers.get('x-ratelimit-limit-tokens'),
        '10000000',
        'without terms, the standard account budget (ACCOUNT_TOKENS_PER_MINUTE) applies',
      );
    });

    test('a key with a spend cap is refused with 403 once the cap is spent, and never spends past it', async () => {
      const probe = await newUser({ balanceMicros: 1_000_000 });
      const body = { max_completion_tokens: 200, messages: [{ role: 'user', content: 'x [sim:words=150]' }] };
      const oneMicros = Math.round(
        ((await (await post(gateway.url, probe.key, body)).json()) as Answer).usage.cost * 1e6,
      );
      const capMicros = oneMicros * 3;
      const sequential = await newUser({ balanceMicros: 1_000_000, key: { spendCapMicros: capMicros } });
      const statuses: number[] = [];
      for (let call = 0; call < 6; call += 1) {
        const response = await post(gateway.url, sequential.key, body);
        statuses.push(response.status);
        if (response.status === 403) {
          assert.equal(((await response.json()) as ErrorBody).error.code, 'key_spend_cap_reached');
        } else await response.text();
      }
      assert.ok(statuses.includes(403), String(statuses));
      assert.deepEqual(
        statuses.slice(statuses.indexOf(403)),
        statuses.slice(statuses.indexOf(403)).map(() => 403),
      );
      const spent = async (userId: string) =>
        Number(
          (
            await db()
              .selectFrom('api_keys')
              .select('spent_micros')
              .where('user_id', '=', userId)
              .executeTakeFirstOrThrow()
          ).spent_micros,
        );
      const sequentialSpent = await spent(sequential.userId);
      assert.ok(sequentialSpent <= capMicros, `spent ${sequentialSpent} of a ${capMicros} cap`);
      assert.equal(1_000_000 - (await sumLedgerAccount(db(), userLedgerAccount(sequential.userId))), sequentialSpent);

      const concurrent = await newUser({ balanceMicros: 1_000_000, key: { spendCapMicros: capMicros } });
      const results = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await post(gateway.url, concurrent.key, body);
          const answer = (await response.json()) as Partial<Answer> & Partial<ErrorBody>;
          return { status: response.status, costMicros: Math.round((answer.usage?.cost ?? 0) * 1e6) };
        }),
      );
      assert.ok(
        results.every((result) => result.status === 200 || result.status === 403),
        String(results.map((result) => result.status)),
      );
      const charged = results.reduce((sum, result) => sum + result.costMicros, 0);
      assert.ok(charged <= capMicros, `20 calls at once charged ${charged} on a ${capMicros} cap`);
      assert.equal(await spent(concurrent.userId), charged);
    });
  });
}

describe('tokens per minute across two nodes sharing Redis', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ databaseKind: 'postgres', environment: { REDIS_URL: testRedisUrl() } });
  });
  after(() => gateway.close());
  afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

  test('one key’s token budget is one budget on every node', async () => {
    const second = await startSecondNode(gateway);
    try {
      const { key } = await gateway.createUserWithKey({ balanceMicros: 1_000_000, key: { tokensPerMinute: 1_000 } });
      const { refused } = await exhaustTokenBudget({ urls: [gateway.url, second.node.url], key });
      await assertTokenRefusal(refused, /API key: 1000 tokens per minute/);
    } finally {
      await second.close();
    }
  });
});
