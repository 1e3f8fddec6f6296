import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/config.ts';
import {
  isProcessAlive,
  listDescendantPids,
  readStream,
  spawnGatewayProcess,
  waitForListening,
  type GatewayProcess,
} from '../support/gateway-process.ts';
import { runCli } from '../support/run-cli.ts';

/**
 * `npm start` exactly as the README runs it: npm forwards SIGTERM to its child only, so the gateway must be that
 * child. A shell or second node process in between would leave the gateway serving, orphaned, with no drain.
 */
describe('npm start', () => {
  const directories: string[] = [];
  const started: GatewayProcess[] = [];
  const spawnedPids: number[] = [];
  after(() => {
    // A failed run may leave a gateway behind: stop it, so the test ends and no server stays up.
    for (const pid of spawnedPids) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
    for (const npm of started) {
      npm.child.stdout?.destroy();
      npm.child.stderr?.destroy();
    }
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  const startNpm = async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-npm-start-'));
    // `npm run build` builds the web app once (as `npm install` does) into a directory of this test's own, so a build
    // here never races another test's server; `npm start` then only serves it.
    const webDistDir = mkdtempSync(path.join(tmpdir(), 'gateway-npm-start-web-'));
    directories.push(dataDir, webDistDir);
    const config = parseConfig({ DATA_DIR: dataDir });
    assert.equal(
      (await runCli(config, ['user', 'create', '--email', 'n@example.com', '--password', 'long enough password']))
        .exitCode,
      0,
    );
    const created = await runCli(config, ['key', 'create', '--email', 'n@example.com']);
    const key = /sk-[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
    assert.ok(key, created.stdout + created.stderr);
    const build = spawnGatewayProcess({
      command: 'npm',
      args: ['run', 'build'],
      environment: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), WEB_DIST_DIR: webDistDir },
    });
    assert.deepEqual(await build.exited, { code: 0, signal: null }, build.output());
    const builtAtMs = statSync(path.join(webDistDir, 'index.html')).mtimeMs;
    const npm = spawnGatewayProcess({
      command: 'npm',
      args: ['start'],
      environment: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        PORT: '0',
        DATA_DIR: dataDir,
        WEB_DIST_DIR: webDistDir,
        SANDBOX: 'on',
        LOG_LEVEL: 'info',
      },
      isDetached: true,
    });
    started.push(npm);
    const url = await waitForListening(npm);
    assert.equal(statSync(path.join(webDistDir, 'index.html')).mtimeMs, builtAtMs, 'npm start serves, builds nothing');
    assert.doesNotMatch(npm.output(), /building the web app/);
    const page = await fetch(`${url}/`);
    assert.match(await page.text(), /<div id="root">/);
    return { npm, url, key };
  };

  /** Starts a long stream, sends `signal` once its first bytes arrive, and returns the whole stream text. */
  const streamThroughSignal = async (input: { url: string; key: string; sendSignal: () => void }) => {
    const response = await fetch(`${input.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${input.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o',
        stream: true,
        messages: [{ role: 'user', content: 'A long answer [sim:words=60]' }],
      }),
    });
    assert.equal(response.status, 200);
    let isSignalled = false;
    const text = await readStream(response, () => {
      if (isSignalled) return;
      isSignalled = true;
      input.sendSignal();
    });
    assert.ok(isSignalled);
    return text;
  };

  const assertDrainedAndGone = async (npm: GatewayProcess, processes: readonly number[], text: string) => {
    assert.ok(text.trimEnd().endsWith('data: [DONE]'), 'the in-flight stream ran to its end after SIGTERM');
    const exit = await npm.processExited;
    assert.deepEqual(exit, { code: 0, signal: null }, npm.output());
    for (const pid of processes) assert.equal(isProcessAlive(pid), false, `process ${pid} was left running`);
    await npm.exited;
    assert.match(npm.output(), /"signal":"SIGTERM".*shutting down/);
  };

  test('SIGTERM to npm drains the in-flight stream, then the gateway and npm exit 0', async () => {
    const { npm, url, key } = await startNpm();
    const pid = npm.child.pid!;
    const processes = listDescendantPids(pid);
    spawnedPids.push(...processes);
    assert.ok(processes.length > 0, 'npm runs the gateway as its child');
    const text = await streamThroughSignal({ url, key, sendSignal: () => process.kill(pid, 'SIGTERM') });
    await assertDrainedAndGone(npm, processes, text);
  });

  test('SIGTERM to the whole process group (as a supervisor sends it) drains and exits', async () => {
    const { npm, url, key } = await startNpm();
    const pid = npm.child.pid!;
    const processes = listDescendantPids(pid);
    spawnedPids.push(...processes);
    const text = await streamThroughSignal({ url, key, sendSignal: () => process.kill(-pid, 'SIGTERM') });
    await assertDrainedAndGone(npm, processes, text);
  });
});
