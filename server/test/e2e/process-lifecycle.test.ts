import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { openDatabase } from '../../src/db/database.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { parseConfig } from '../../src/config/config.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import type { Balance } from '../../../contract/balance.ts';
import { callApi, signIn } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { runCli } from '../support/run-cli.ts';
import { testRedisUrl } from '../support/test-redis.ts';
import { databaseKinds, createTestDatabase } from '../support/test-databases.ts';

const mainPath = new URL('../../src/main.ts', import.meta.url).pathname;

type RunningProcess = { child: ChildProcess; url: string; exited: Promise<number | null> };

/** Starts `server/src/main.ts` as its own process and waits for its "listening" line. */
function startProcess(environment: Record<string, string>): Promise<RunningProcess> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', mainPath], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', SANDBOX: 'on', LOG_LEVEL: 'info', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /gateway listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1], exited });
    });
    child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
    void exited.then((code) => reject(new Error(`gateway exited with ${code} before listening:\n${output}`)));
  });
}

async function readStream(response: Response, onData: (text: string) => void): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      onData(text);
    }
  } catch {
    // The connection was cut (the process died): what arrived so far is the answer.
  }
  return text;
}

for (const databaseKind of databaseKinds) {
  describe(`the gateway process on ${databaseKind}`, () => {
    let environment: Record<string, string>;
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    const setUp = async () => {
      const database = await createTestDatabase(databaseKind);
      const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-process-'));
      cleanups.push(database.drop, async () => rmSync(dataDir, { recursive: true, force: true }));
      // On PostgreSQL the credit holds live in Redis, as with several nodes, so a dead process's holds outlive it.
      const redis = databaseKind === 'postgres' ? { REDIS_URL: testRedisUrl() } : {};
      environment = { ...database.environment, ...redis, DATA_DIR: dataDir };
      const config = parseConfig(environment);
      assert.equal(
        (
          await runCli(config, [
            'user',
            'create',
            '--email',
            'p@example.com',
            '--password',
            'long enough password',
            '--balance-usd',
            '5',
          ])
        ).exitCode,
        0,
      );
      const created = await runCli(config, ['key', 'create', '--email', 'p@example.com']);
      const key = /sk-[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
      assert.ok(key, created.stdout + created.stderr);
      return { config, key };
    };

    test('SIGTERM lets an in-flight stream finish, then exits 0', async () => {
      const { key } = await setUp();
      const running = await startProcess(environment);
      const response = await fetch(`${running.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4o',
          stream: true,
          messages: [{ role: 'user', content: 'A long answer [sim:words=60]' }],
        }),
      });
      let signalled = false;
      const text = await readStream(response, () => {
        if (!signalled) {
          signalled = true;
          running.child.kill('SIGTERM');
        }
      });
      assert.ok(signalled);
      assert.ok(text.trimEnd().endsWith('data: [DONE]'), 'the stream ran to its end after SIGTERM');
      assert.equal(await running.exited, 0);
    });

    test('kill -9 in the middle of a burst loses no completed charge, and restart frees the dead holds', async () => {
      const { config, key } = await setUp();
      const running = await startProcess(environment);
      const completed: Array<{ requestId: string; costUsd: number }> = [];
      let settledCount = 0;
      const burst = Array.from({ length: 24 }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * 60));
        try {
          const response = await fetch(`${running.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              model: 'claude-sonnet-4-5',
              stream: true,
              stream_options: { include_usage: true },
              messages: [{ role: 'user', content: `Burst ${index} [sim:words=20]` }],
            }),
          });
          const text = await readStream(response, () => undefined);
          const usageEvent = text
            .split('\n\n')
            .map((event) => event.replace(/^data: /, ''))
            .find((data) => data.includes('"usage"') && data.includes('"cost"'));
          if (usageEvent) {
            const chunk = JSON.parse(usageEvent) as { id: string; usage: { cost: number } };
            completed.push({ requestId: chunk.id.replace(/^chatcmpl-/, ''), costUsd: chunk.usage.cost });
          }
        } catch {
          // Refused connections after the kill are expected.
        } finally {
          settledCount += 1;
        }
      });
      for (let waited = 0; completed.length < 2 && waited < 15_000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      running.child.kill('SIGKILL');
      await running.exited;
      await Promise.all(burst);
      assert.equal(settledCount, 24);
      assert.ok(completed.length > 0, 'some requests completed before the kill');
      assert.ok(completed.length < 24, 'the kill cut some requests');

      // The restarted process writes what the dead one had journaled, and takes back the holds it left.
      const restarted = await startProcess(environment);
      try {
        const database = openDatabase(config.database);
        try {
          for (const { requestId, costUsd } of completed) {
            const record = await findUsageRecord(database.db, requestId);
            assert.equal(record?.status, 'completed', `completed request ${requestId} was recorded`);
            assert.equal(microsToUsd(record.cost_micros), costUsd);
          }
          const user = await database.db.selectFrom('users').select(['id', 'balance_micros']).executeTakeFirstOrThrow();
          const ledgerBalance = await sumLedgerAccount(database.db, userLedgerAccount(user.id));
          const records = await database.db.selectFrom('usage_records').select('cost_micros').execute();
          const charged = records.reduce((sum, record) => sum + record.cost_micros, 0);
          assert.equal(ledgerBalance, 5_000_000 - charged, 'the ledger holds exactly the recorded charges');
          assert.equal(user.balance_micros, ledgerBalance);
          await assertLedgerBalanced(database.db);
          const session = await signIn(restarted.url, { email: 'p@example.com', password: 'long enough password' });
          const balance = (await callApi(restarted.url, '/api/balance', { session })).json as Balance;
          assert.equal(balance.held_usd, 0, 'no hold of the dead process is left');
          assert.equal(balance.available_usd, microsToUsd(ledgerBalance), 'no charge counts twice');
        } finally {
          await database.close();
        }
        const answer = await fetch(`${restarted.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after restart' }] }),
        });
        assert.equal(answer.status, 200);
      } finally {
        restarted.child.kill('SIGTERM');
        assert.equal(await restarted.exited, 0);
      }
    });
  });
}
