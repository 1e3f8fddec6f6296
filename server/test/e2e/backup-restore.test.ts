import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { parseConfig } from '../../src/config/config.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { runCli } from '../support/run-cli.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type Account = { userId: string; key: string; balanceMicros: number };

async function creditsOf(
  baseUrl: string,
  key: string,
): Promise<{ status: number; totalCredits: number; usage: number }> {
  const response = await fetch(`${baseUrl}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { data?: { total_credits: number; total_usage: number } };
  return {
    status: response.status,
    totalCredits: body.data?.total_credits ?? NaN,
    usage: body.data?.total_usage ?? NaN,
  };
}

async function chat(baseUrl: string, key: string, content: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content }] }),
  });
  await response.text();
  return response.status;
}

describe('issue 19: `npm run cli -- backup` while serving, then a restore finds every balance and key', () => {
  let source: TestGateway;
  let restored: RunningGateway | undefined;
  const accounts: Account[] = [];
  const directory = mkdtempSync(path.join(tmpdir(), 'gateway-backup-'));
  const backupPath = path.join(directory, 'gateway-backup.sqlite');
  const restoredDataDir = path.join(directory, 'restored-data');

  before(async () => {
    source = await startTestGateway();
    for (let index = 0; index < 6; index += 1) {
      const created = await source.createUserWithKey({ balanceMicros: 1_000_000 * (index + 1) });
      accounts.push({ ...created, balanceMicros: 0 });
    }
    // Settled calls move the balances off their round starting values.
    for (const account of accounts) assert.equal(await chat(source.url, account.key, 'Name a river.'), 200);
  });
  after(async () => {
    await restored?.close();
    await source.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('the backup is taken during a burst, is private, and a gateway on a fresh folder serves every account from it', async () => {
    const burst = Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        chat(source.url, accounts[index % 2]!.key, 'A long answer [sim:words=80]'),
      ),
    );
    const backup = await runCli(source.config, ['backup', '--to', backupPath]);
    assert.equal(backup.exitCode, 0, backup.stderr);
    assert.match(backup.stdout, /backed up .* to .*gateway-backup\.sqlite/);
    assert.deepEqual(await burst, Array(12).fill(200), 'the gateway kept serving during the backup');
    assert.equal((statSync(backupPath).mode & 0o777).toString(8), '600');
    const again = await runCli(source.config, ['backup', '--to', backupPath]);
    assert.equal(again.exitCode, 2, 'a backup never overwrites a file');

    // Accounts without traffic during the backup must come back exactly as they were.
    const idle = accounts.slice(2);
    for (const account of idle) {
      const credits = await creditsOf(source.gateway.url, account.key);
      assert.equal(credits.status, 200);
      account.balanceMicros = Math.round((credits.totalCredits - credits.usage) * 1_000_000);
    }

    // The restore: a new machine gets the backup file and the master key, nothing else.
    const restoredConfig = parseConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      SANDBOX: 'on',
      DATA_DIR: restoredDataDir,
    });
    const masterKeyFile = path.join(source.config.dataDir, 'master.key');
    assert.ok(existsSync(masterKeyFile) || source.config.masterKeyHex !== undefined, 'the source has a master key');
    rmSync(restoredDataDir, { recursive: true, force: true });
    mkdirSync(restoredDataDir, { recursive: true, mode: 0o700 });
    if (existsSync(masterKeyFile)) copyFileSync(masterKeyFile, path.join(restoredDataDir, 'master.key'));
    copyFileSync(backupPath, path.join(restoredDataDir, 'gateway.sqlite'));
    restored = await startGateway(restoredConfig, pino({ level: 'silent' }));
    await assertLedgerBalanced(restored.database.db);

    for (const account of accounts) {
      const credits = await creditsOf(restored.url, account.key);
      assert.equal(credits.status, 200, 'every key authenticates on the restored gateway');
    }
    for (const account of idle) {
      const credits = await creditsOf(restored.url, account.key);
      assert.equal(Math.round((credits.totalCredits - credits.usage) * 1_000_000), account.balanceMicros);
    }
    const users = await restored.database.db.selectFrom('users').select(['id', 'balance_micros']).execute();
    for (const account of accounts) assert.ok(users.some((user) => user.id === account.userId));
    assert.equal(await chat(restored.url, accounts[0]!.key, 'Still here?'), 200, 'the restored gateway serves calls');
  });
});
