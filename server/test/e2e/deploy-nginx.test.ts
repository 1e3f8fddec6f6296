import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** Debian's nginx (nginx-light), which the test command installs with the other system packages. */
const nginxPath = '/usr/sbin/nginx';
const siteTemplate = readFileSync(new URL('../../../deploy/nginx-model-gateway.conf', import.meta.url), 'utf8');
/** The proxy's idle timeout in this test: shorter than the model's silence below, longer than the keep-alive interval. */
const proxyIdleTimeoutSeconds = 2;
const modelSilenceMs = 4_500;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The deploy/ site with only the addresses and the idle timeout changed; each change must find its line. */
function adaptSite(input: { gatewayPort: number; listenPort: number }): string {
  const replacements: Array<[string, string]> = [
    ['server 127.0.0.1:8080;', `server 127.0.0.1:${input.gatewayPort};`],
    ['listen 80;', `listen 127.0.0.1:${input.listenPort};`],
    ['proxy_read_timeout 300s;', `proxy_read_timeout ${proxyIdleTimeoutSeconds}s;`],
  ];
  let site = siteTemplate;
  for (const [from, to] of replacements) {
    assert.ok(site.includes(from), `deploy/nginx-model-gateway.conf has \`${from}\``);
    site = site.replace(from, to);
  }
  return site;
}

async function waitForPort(port: number, nginx: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited: ${output()}`);
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (isOpen) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx never listened: ${output()}`);
}

/** Posts a chat request and reads the answer, noting when the first bytes came. */
async function chat(baseUrl: string, key: string, body: object) {
  const startedMs = Date.now();
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstBytesAfterMs: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    firstBytesAfterMs ??= Date.now() - startedMs;
    text += decoder.decode(value, { stream: true });
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    firstBytesAfterMs,
    tookMs: Date.now() - startedMs,
  };
}

describe('deploy/: nginx from Debian in front of the gateway (issue 19)', () => {
  let gateway: TestGateway;
  let key: string;
  let nginx: ChildProcess;
  let proxyUrl: string;
  let nginxOutput = '';
  const directory = mkdtempSync(path.join(tmpdir(), 'gateway-nginx-'));

  before(async () => {
    gateway = await startTestGateway({ environment: { KEEPALIVE_INTERVAL_MS: '500', TRUST_PROXY: '127.0.0.1' } });
    ({ key } = await gateway.createUserWithKey({ balanceMicros: 5_000_000 }));
    const listenPort = await freePort();
    const site = adaptSite({ gatewayPort: Number(new URL(gateway.gateway.url).port), listenPort });
    writeFileSync(path.join(directory, 'site.conf'), site);
    for (const folder of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(directory, folder));
    writeFileSync(
      path.join(directory, 'nginx.conf'),
      [
        'daemon off;',
        'master_process off;',
        `pid ${directory}/nginx.pid;`,
        `error_log ${directory}/error.log warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  access_log off;',
        ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (folder) => `  ${folder === 'body' ? 'client_body' : folder}_temp_path ${directory}/${folder};`,
        ),
        `  include ${directory}/site.conf;`,
        '}',
      ].join('\n'),
    );
    nginx = spawn(
      nginxPath,
      ['-p', directory, '-c', path.join(directory, 'nginx.conf'), '-e', `${directory}/error.log`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    nginx.stdout?.on('data', (data: Buffer) => (nginxOutput += data.toString()));
    nginx.stderr?.on('data', (data: Buffer) => (nginxOutput += data.toString()));
    await waitForPort(listenPort, nginx, () => nginxOutput);
    proxyUrl = `http://127.0.0.1:${listenPort}`;
  });

  after(async () => {
    if (nginx?.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    await gateway?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('a stream silent for longer than the proxy idle timeout stays open through keep-alive comments', async () => {
    const answer = await chat(proxyUrl, key, {
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: `Think long [sim:delay-first-byte=${modelSilenceMs}]` }],
    });
    assert.equal(answer.status, 200, answer.text);
    assert.ok(answer.tookMs >= modelSilenceMs, `the model was silent ${modelSilenceMs} ms (took ${answer.tookMs})`);
    assert.ok(answer.text.startsWith(': keep-alive'), 'keep-alive comments came first');
    assert.ok(answer.text.trimEnd().endsWith('data: [DONE]'), 'the stream ran to its end through nginx');
    assert.ok(
      (answer.firstBytesAfterMs ?? Infinity) < proxyIdleTimeoutSeconds * 1000,
      `unbuffered: the first keep-alive passed nginx after ${answer.firstBytesAfterMs} ms`,
    );
  });

  test('the same silence without keep-alives (a non-streamed answer) is cut by the proxy: the timeout is real', async () => {
    const answer = await chat(proxyUrl, key, {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: `Think long [sim:delay-first-byte=${modelSilenceMs}]` }],
    });
    assert.equal(answer.status, 504, 'nginx gave up after its idle timeout');
    assert.ok(answer.tookMs < modelSilenceMs);
  });

  test('the direct address works beside the proxy: both serve the API and its streams', async () => {
    for (const baseUrl of [proxyUrl, gateway.gateway.url]) {
      const models = await fetch(`${baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(models.status, 200, baseUrl);
      const streamed = await chat(baseUrl, key, {
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: 'Hello' }],
      });
      assert.equal(streamed.status, 200);
      assert.ok(streamed.text.trimEnd().endsWith('data: [DONE]'), baseUrl);
    }
  });
});
