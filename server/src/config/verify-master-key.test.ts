import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { findInstanceSetting } from '../db/instance-settings.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { insertModelIfAbsent } from '../db/models.ts';
import { insertRoute } from '../db/routes.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { StartupError } from '../startup-error.ts';
import { fingerprintMasterKey, loadVerifiedMasterKey } from './verify-master-key.ts';

const nowMs = () => 1_700_000_000_000;

for (const databaseKind of databaseKinds) {
  describe(`the master key check on ${databaseKind}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    const setUp = async (): Promise<{ handle: DatabaseHandle; dataDir: string }> => {
      const database = await createTestDatabase(databaseKind);
      const handle = openDatabase(database.config);
      const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-master-key-'));
      cleanups.push(async () => {
        await handle.close();
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      });
      await migrateToLatest(handle.db);
      return { handle, dataDir };
    };

    const insertSealedRoute = async (db: DatabaseHandle['db'], key: Buffer) => {
      await insertModelIfAbsent(db, {
        id: 'test-model',
        display_name: 'Test model',
        family: 'test',
        kind: 'text',
        context_length: 8000,
        max_output_tokens: 1000,
        input_rate_micros: 1,
        output_rate_micros: 1,
        cached_input_rate_micros: null,
        per_request_micros: null,
        list_input_rate_micros: 1,
        list_output_rate_micros: 1,
        list_cached_input_rate_micros: null,
        list_per_request_micros: null,
        supports_tools: 1,
        supports_vision: 0,
        price_effective_at: 1,
        enabled: 1,
        created_at: 1,
      });
      await insertRoute(db, {
        id: `rte_${randomBytes(4).toString('hex')}`,
        model_id: 'test-model',
        provider: 'openai',
        base_url: 'https://api.example.com/v1',
        credential_ciphertext: createSecretBox(key).seal('sk-vendor'),
        upstream_model: 'vendor-model',
        priority: 10,
        weight: 1,
        enabled: 1,
        is_sandbox: 0,
        created_at: 1,
      });
    };

    test('the first process stores the fingerprint; the same key passes, another key is refused', async () => {
      const { handle, dataDir } = await setUp();
      const first = await loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: undefined, dataDir });
      assert.equal(first.source, 'generated');
      assert.equal(await findInstanceSetting(handle.db, 'master_key_fingerprint'), fingerprintMasterKey(first.key));
      const again = await loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: undefined, dataDir });
      assert.equal(again.source, 'file');
      assert.deepEqual(again.key, first.key);
      const viaEnvironment = await loadVerifiedMasterKey(
        { db: handle.db, nowMs },
        { masterKeyHex: first.key.toString('hex'), dataDir: '/nonexistent' },
      );
      assert.deepEqual(viaEnvironment.key, first.key);

      const otherKeyHex = randomBytes(32).toString('hex');
      await assert.rejects(
        loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: otherKeyHex, dataDir }),
        (error: unknown) =>
          error instanceof StartupError &&
          /the master key \(from MASTER_KEY\) is not the one this database's vendor credentials are sealed with/.test(
            error.message,
          ) &&
          !error.message.includes(otherKeyHex),
      );
    });

    test('another machine with no key does not generate one: it is told to set MASTER_KEY', async () => {
      const { handle, dataDir } = await setUp();
      await loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: undefined, dataDir });
      const otherDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-master-key-other-'));
      cleanups.push(async () => rmSync(otherDataDir, { recursive: true, force: true }));
      await assert.rejects(
        loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: undefined, dataDir: otherDataDir }),
        (error: unknown) => error instanceof StartupError && /no master key: .*set MASTER_KEY/.test(error.message),
      );
      assert.equal(existsSync(path.join(otherDataDir, 'master.key')), false, 'no stray key was generated');
      writeFileSync(path.join(otherDataDir, 'master.key'), `${randomBytes(32).toString('hex')}\n`);
      await assert.rejects(
        loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: undefined, dataDir: otherDataDir }),
        (error: unknown) => error instanceof StartupError && error.message.includes(`from ${otherDataDir}/master.key`),
      );
    });

    test('a database from before the fingerprint: the key must open its sealed credentials', async () => {
      const { handle, dataDir } = await setUp();
      const sealingKey = randomBytes(32);
      await insertSealedRoute(handle.db, sealingKey);
      await assert.rejects(
        loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: undefined, dataDir }),
        (error: unknown) => error instanceof StartupError && /1 sealed vendor credential/.test(error.message),
      );
      assert.equal(existsSync(path.join(dataDir, 'master.key')), false, 'no key was generated beside sealed data');
      await assert.rejects(
        loadVerifiedMasterKey({ db: handle.db, nowMs }, { masterKeyHex: randomBytes(32).toString('hex'), dataDir }),
        (error: unknown) =>
          error instanceof StartupError && /opens none of the 1 vendor credential/.test(error.message),
      );
      assert.equal(await findInstanceSetting(handle.db, 'master_key_fingerprint'), undefined);
      const accepted = await loadVerifiedMasterKey(
        { db: handle.db, nowMs },
        { masterKeyHex: sealingKey.toString('hex'), dataDir },
      );
      assert.deepEqual(accepted.key, sealingKey);
      assert.equal(await findInstanceSetting(handle.db, 'master_key_fingerprint'), fingerprintMasterKey(sealingKey));
    });

    test('the fingerprint reveals nothing of the key and differs between keys', () => {
      const key = randomBytes(32);
      const fingerprint = fingerprintMasterKey(key);
      assert.match(fingerprint, /^v1:[0-9a-f]{64}$/);
      assert.ok(!fingerprint.includes(key.toString('hex')));
      assert.notEqual(fingerprint, fingerprintMasterKey(randomBytes(32)));
      assert.equal(fingerprint, fingerprintMasterKey(Buffer.from(key)));
    });
  });
}
