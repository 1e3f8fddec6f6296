import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig, type Config } from '../../src/config/config.ts';
import { spawnGateway, waitForListening, type GatewayProcess } from './gateway-process.ts';
import { runCli } from './run-cli.ts';
import { createTestDatabase } from './test-databases.ts';

type Cleanup = () => Promise<void> | void;

/**
 * One gateway node on a fresh SQLite database and data folder (no Redis), with a customer holding 5 USD and a key:
 * `start` spawns the node in sandbox mode, again on the same folder after a `kill -9`, as the crash tests need.
 */
export async function setUpSingleSqliteNode(input: { email: string; folderPrefix: string; cleanups: Cleanup[] }) {
  const { cleanups } = input;
  const database = await createTestDatabase('sqlite');
  cleanups.push(database.drop);
  const dataDir = mkdtempSync(path.join(tmpdir(), input.folderPrefix));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const environment = { ...database.environment, DATA_DIR: dataDir };
  const config: Config = parseConfig(environment);
  const args = ['user', 'create', '--email', input.email, '--password', 'long enough password'];
  assert.equal((await runCli(config, [...args, '--balance-usd', '5'])).exitCode, 0);
  const key = /sk-[A-Za-z0-9_-]+/.exec((await runCli(config, ['key', 'create', '--email', input.email])).stdout)?.[0];
  assert.ok(key);
  const start = async (): Promise<{ gateway: GatewayProcess; url: string }> => {
    const gateway = spawnGateway({ ...environment, PORT: '0', SANDBOX: 'on', LOG_LEVEL: 'info' });
    cleanups.push(async () => {
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      await gateway.exited;
    });
    return { gateway, url: await waitForListening(gateway) };
  };
  return { config, key, start };
}
