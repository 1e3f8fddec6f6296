import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type Outcome = { status: number; costMicros: number; code: string | undefined };

async function drawImage(gateway: TestGateway, key: string): Promise<Outcome> {
  const response = await fetch(`${gateway.url}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'dall-e-3', prompt: 'a lighthouse at dawn', size: '1024x1024', quality: 'standard' }),
  });
  const body = (await response.json()) as { cost?: number; error?: { code: string } };
  return { status: response.status, costMicros: Math.round((body.cost ?? 0) * 1e6), code: body.error?.code };
}

describe('image calls under a key spend cap', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ databaseKind: 'sqlite' });
  });
  after(() => gateway.close());
  afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

  test('ten image calls at once on a cap worth two charge at most two, alone or beside chat calls', async () => {
    const probe = await gateway.createUserWithKey({ balanceMicros: 10_000_000 });
    const oneMicros = (await drawImage(gateway, probe.key)).costMicros;
    assert.ok(oneMicros > 0);
    const capMicros = oneMicros * 2 + Math.floor(oneMicros / 2);
    const { userId, key } = await gateway.createUserWithKey({
      balanceMicros: 10_000_000,
      key: { spendCapMicros: capMicros },
    });
    const chat = fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello [sim:words=20]' }] }),
    }).then(async (response) => {
      const body = (await response.json()) as { usage?: { cost: number } };
      return { status: response.status, costMicros: Math.round((body.usage?.cost ?? 0) * 1e6), code: undefined };
    });
    const outcomes = await Promise.all([...Array.from({ length: 10 }, () => drawImage(gateway, key)), chat]);
    const refused = outcomes.filter((outcome) => outcome.status === 403);
    assert.ok(refused.length > 0, 'the cap refused some calls');
    assert.ok(refused.every((outcome) => outcome.code === 'key_spend_cap_reached'));
    assert.ok(outcomes.every((outcome) => outcome.status === 200 || outcome.status === 403));
    const charged = outcomes.reduce((sum, outcome) => sum + outcome.costMicros, 0);
    assert.ok(charged <= capMicros, `charged ${charged} on a ${capMicros} cap`);
    assert.equal(
      10_000_000 - (await sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId))),
      charged,
    );
  });
});
