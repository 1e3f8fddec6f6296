import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { testRedisUrl } from '../support/test-redis.ts';

type Outcome = { status: number; costMicros: number };

/** The burst is about credit: the account's concurrency slots (50 by default) must not refuse part of it with 429. */
const burstLimits = { ACCOUNT_CONCURRENT_REQUESTS: '1000' };

/** One call of a known size: the simulator answers 40 words, far below the 400-token limit the hold covers. */
async function call(url: string, key: string, index: number): Promise<Outcome> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      max_completion_tokens: 400,
      messages: [{ role: 'user', content: `Call ${index} [sim:words=40]` }],
    }),
  });
  const body = (await response.json()) as { usage?: { cost: number } };
  return { status: response.status, costMicros: Math.round((body.usage?.cost ?? 0) * 1e6) };
}

/** What one call costs, measured on a generous balance. */
async function measureCallCost(gateway: TestGateway): Promise<number> {
  const { key } = await gateway.createUserWithKey({ balanceMicros: 10_000_000 });
  const outcome = await call(gateway.url, key, 0);
  assert.equal(outcome.status, 200);
  return outcome.costMicros;
}

/**
 * 200 calls at once on a balance that covers about ten, spread over the given nodes: the balance never goes below
 * zero, every answer's `usage.cost` is what the ledger debited, and the calls the balance could not cover are 402s.
 */
async function burst(input: { gateway: TestGateway; nodeUrls: readonly string[] }): Promise<void> {
  const callCostMicros = await measureCallCost(input.gateway);
  const balanceMicros = callCostMicros * 10;
  const { userId, key } = await input.gateway.createUserWithKey({ balanceMicros });
  const outcomes = await Promise.all(
    Array.from({ length: 200 }, (_, index) => call(input.nodeUrls[index % input.nodeUrls.length] ?? '', key, index)),
  );
  const db = input.gateway.gateway.database.db;
  const ledgerMicros = await sumLedgerAccount(db, userLedgerAccount(userId));
  const charged = outcomes.filter((outcome) => outcome.status === 200);
  const chargedMicros = charged.reduce((sum, outcome) => sum + outcome.costMicros, 0);
  assert.deepEqual(
    [...new Set(outcomes.map((outcome) => outcome.status))].sort(),
    [200, 402],
    'every call is answered or refused for want of credit',
  );
  assert.ok(ledgerMicros >= 0, `the balance went below zero: ${ledgerMicros} micros`);
  assert.equal(balanceMicros - ledgerMicros, chargedMicros, 'the ledger debited exactly the sum of usage.cost');
  assert.ok(charged.length >= 5, `only ${charged.length} calls were served on a balance that covers ten`);
  const user = await db.selectFrom('users').select('balance_micros').where('id', '=', userId).executeTakeFirstOrThrow();
  assert.equal(user.balance_micros, ledgerMicros, 'the cached balance is the sum of the ledger entries');
  await assertLedgerBalanced(db);
}

describe('200 concurrent calls on one node (SQLite)', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ databaseKind: 'sqlite', environment: burstLimits });
  });
  after(() => gateway.close());

  test('never overdraw a balance that covers ten, and charge exactly what each answer says', async () => {
    await burst({ gateway, nodeUrls: [gateway.url] });
  });
});

describe('200 concurrent calls over two nodes sharing PostgreSQL and Redis', () => {
  let gateway: TestGateway;
  let second: RunningGateway;
  let secondDataDir: string;
  before(async () => {
    gateway = await startTestGateway({
      databaseKind: 'postgres',
      environment: { ...burstLimits, REDIS_URL: testRedisUrl() },
    });
    secondDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-second-node-'));
    // Nodes share the master key that seals vendor credentials, as an operator copies it to each machine.
    copyFileSync(path.join(gateway.config.dataDir, 'master.key'), path.join(secondDataDir, 'master.key'));
    second = await startGateway({ ...gateway.config, dataDir: secondDataDir }, pino({ level: 'silent' }));
  });
  after(async () => {
    await second.close();
    await gateway.close();
    rmSync(secondDataDir, { recursive: true, force: true });
  });

  test('never overdraw a balance that covers ten, and charge exactly what each answer says', async () => {
    await burst({ gateway, nodeUrls: [gateway.url, second.url] });
  });
});
