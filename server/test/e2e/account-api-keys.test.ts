import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, afterEach, before, describe, test } from 'node:test';
import type { ApiKey, CreatedApiKey } from '../../../contract/api-keys.ts';
import pino from 'pino';
import { issueApiKey } from '../../src/accounts/issue-api-key.ts';
import { readMasterKey } from '../../src/config/master-key.ts';
import { startGateway } from '../../src/start-gateway.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { cryptoIds } from '../../src/lib/ids.ts';
import { callApi, readError, signUp, type BrowserSession } from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

for (const databaseKind of databaseKinds) {
  describe(`account API: keys on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let url: string;
    let session: BrowserSession;
    let emailCount = 0;
    const listModels = (key: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    const createKey = async (body: unknown, as: BrowserSession = session) => {
      const response = await callApi(url, '/api/keys', { body, session: as });
      assert.equal(response.status, 201, response.text);
      return response.json as CreatedApiKey;
    };

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      url = gateway.url;
      session = await signUp(url, { email: `keys-${databaseKind}@example.com` });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    test('a new key is shown once; the list shows its limits but never the key or its hash', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const created = await createKey({
        name: '  laptop  ',
        expires_at: expiresAt,
        spend_cap_usd: '12.345678',
        allowed_models: ['gpt-4o', 'claude-sonnet-4-5', 'gpt-4o'],
        requests_per_minute: 30,
        tokens_per_minute: 40_000,
        daily_budget_usd: '1.5',
        monthly_budget_usd: 20,
      });
      assert.match(created.key, /^sk-[A-Za-z0-9_-]{43}$/);
      const expected: ApiKey = {
        id: created.id,
        name: 'laptop',
        prefix: created.key.slice(0, 7),
        last_four: created.key.slice(-4),
        created_at: created.created_at,
        last_used_at: null,
        expires_at: expiresAt,
        spend_cap_usd: 12.345678,
        spent_usd: 0,
        allowed_models: ['gpt-4o', 'claude-sonnet-4-5'],
        requests_per_minute: 30,
        tokens_per_minute: 40_000,
        daily_budget_usd: 1.5,
        monthly_budget_usd: 20,
      };
      assert.deepEqual({ ...created, key: undefined }, { ...expected, key: undefined });
      const list = await callApi(url, '/api/keys', { session });
      assert.deepEqual(list.json, { data: [expected] });
      const row = await gateway.gateway.database.db.selectFrom('api_keys').select('key_hash').executeTakeFirstOrThrow();
      assert.ok(!list.text.includes(created.key.slice(7, -4)), 'the secret part of the key is never listed');
      assert.ok(!list.text.includes(row.key_hash), 'the hash is never listed');
    });

    test('a key reaches only the models of its allowlist', async () => {
      const created = await createKey({ name: 'limited', allowed_models: ['gpt-4o'] });
      const response = await listModels(created.key);
      assert.equal(response.status, 200);
      const models = ((await response.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id);
      assert.deepEqual(models, ['gpt-4o']);
      const outside = await fetch(`${url}/v1/models/claude-sonnet-4-5`, {
        headers: { authorization: `Bearer ${created.key}` },
      });
      assert.equal(outside.status, 404);
      assert.equal(((await outside.json()) as { error: { code: string } }).error.code, 'model_not_found');
    });

    test('invalid limits are 400s naming the field, and create nothing', async () => {
      const before = await callApi(url, '/api/keys', { session });
      const cases: Array<[Record<string, unknown>, string, string?]> = [
        [{}, 'name', 'missing_required_parameter'],
        [{ name: '   ' }, 'name'],
        [{ name: 'k', spend_cap_usd: 'abc' }, 'spend_cap_usd'],
        [{ name: 'k', spend_cap_usd: '-5' }, 'spend_cap_usd'],
        [{ name: 'k', spend_cap_usd: -5 }, 'spend_cap_usd'],
        [{ name: 'k', spend_cap_usd: '0' }, 'spend_cap_usd'],
        [{ name: 'k', spend_cap_usd: '1.1234567' }, 'spend_cap_usd'],
        [{ name: 'k', spend_cap_usd: 1e21 }, 'spend_cap_usd'],
        [{ name: 'k', spend_cap_usd: true }, 'spend_cap_usd'],
        [{ name: 'k', daily_budget_usd: '0' }, 'daily_budget_usd'],
        [{ name: 'k', monthly_budget_usd: 'lots' }, 'monthly_budget_usd'],
        [{ name: 'k', expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
        [{ name: 'k', expires_at: 'tomorrow' }, 'expires_at'],
        [{ name: 'k', allowed_models: ['gpt-4o', 'no-such-model'] }, 'allowed_models[1]', 'model_not_found'],
        [{ name: 'k', allowed_models: [] }, 'allowed_models'],
        [{ name: 'k', requests_per_minute: 0 }, 'requests_per_minute'],
        [{ name: 'k', requests_per_minute: 1.5 }, 'requests_per_minute'],
        [{ name: 'k', tokens_per_minute: 0 }, 'tokens_per_minute'],
        [{ name: 'k', tokens_per_minute: '1000' }, 'tokens_per_minute'],
      ];
      for (const [body, param, code] of cases) {
        const response = await callApi(url, '/api/keys', { body, session });
        assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
        const error = readError(response);
        assert.equal(error.param, param, response.text);
        if (code) assert.equal(error.code, code);
      }
      const invalidJson = await callApi(url, '/api/keys', { rawBody: '{"name":', session });
      assert.equal(invalidJson.status, 400);
      assert.equal(readError(invalidJson).code, 'invalid_json');
      assert.deepEqual((await callApi(url, '/api/keys', { session })).json, before.json);
      const me = await callApi(url, '/api/me', { session });
      assert.equal((me.json as { balance_usd: number }).balance_usd, 1, 'the ledger is unchanged');
    });

    test('a revoked key is refused with 401 on every node within 1 s; revoking it again or another account’s key is a 404', async () => {
      const created = await createKey({ name: 'to revoke' });
      // Every node has a data directory of its own; the database (and the master key) are shared.
      const secondDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-second-node-'));
      const masterKey = readMasterKey({ masterKeyHex: gateway.config.masterKeyHex, dataDir: gateway.config.dataDir });
      const secondNode = await startGateway(
        { ...gateway.config, dataDir: secondDataDir, masterKeyHex: masterKey?.key.toString('hex') },
        pino({ level: 'silent' }),
      );
      try {
        const listModelsOn = (nodeUrl: string) =>
          fetch(`${nodeUrl}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } });
        assert.equal((await listModels(created.key)).status, 200);
        assert.equal((await listModelsOn(secondNode.url)).status, 200, 'the key works on the second node');
        const revoked = await callApi(url, `/api/keys/${created.id}`, { method: 'DELETE', session });
        assert.equal(revoked.status, 200, revoked.text);
        const revokedAtMs = Date.now();
        assert.deepEqual(revoked.json, { id: created.id, deleted: true });
        assert.equal((await listModels(created.key)).status, 401, 'the node that revoked it refuses it at once');
        // The other node notices at its next poll of the cache versions (every 500 ms): within the 1 s promised.
        let status = 200;
        while (status !== 401 && Date.now() - revokedAtMs < 1_000) {
          status = (await listModelsOn(secondNode.url)).status;
          if (status !== 401) await sleep(25);
        }
        assert.equal(status, 401, 'the second node refuses the revoked key within 1 s');
      } finally {
        await secondNode.close();
        rmSync(secondDataDir, { recursive: true, force: true });
      }
      const again = await callApi(url, `/api/keys/${created.id}`, { method: 'DELETE', session });
      assert.equal(again.status, 404);
      const listed = (await callApi(url, '/api/keys', { session })).json as { data: ApiKey[] };
      assert.ok(!listed.data.some((key) => key.id === created.id));

      const other = await signUp(url, { email: `other-${++emailCount}-${databaseKind}@example.com` });
      const othersKey = await createKey({ name: 'theirs' }, other);
      const foreign = await callApi(url, `/api/keys/${othersKey.id}`, { method: 'DELETE', session });
      assert.equal(foreign.status, 404);
      assert.equal((await listModels(othersKey.key)).status, 200);
    });

    test('malformed, unknown and expired keys are 401s', async () => {
      const issued = await issueApiKey(
        { db: gateway.gateway.database.db, clock: systemClock, ids: cryptoIds },
        { userId: session.me.id, name: 'expired', expiresAt: Date.now() - 1000 },
      );
      const expired = await listModels(issued.key);
      assert.equal(expired.status, 401);
      assert.equal(((await expired.json()) as { error: { code: string } }).error.code, 'expired_api_key');
      for (const key of ['sk-short', `sk-${'B'.repeat(43)}`, 'not-a-key']) {
        assert.equal((await listModels(key)).status, 401);
      }
    });

    test('the key endpoints need a session', async () => {
      assert.equal((await callApi(url, '/api/keys')).status, 401);
      assert.equal((await callApi(url, '/api/keys', { body: { name: 'x' } })).status, 401);
      assert.equal((await callApi(url, '/api/keys/key_x', { method: 'DELETE' })).status, 401);
    });
  });
}
