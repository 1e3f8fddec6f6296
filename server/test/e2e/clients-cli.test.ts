import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { installCliClients, type CliClients } from '../support/clients/install-cli-clients.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** Installing the clients (first run) and running them take minutes, above the suite's default test timeout. */
const clientTimeoutMs = 15 * 60_000;

/** A Claude, a GPT, a Gemini and a DeepSeek model: the families docs/conformance.md lists. */
const familyModels = ['claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-flash', 'deepseek-chat'];
const runTimeoutMs = 120_000;

/**
 * Only the gateway on loopback is reachable: anything else a CLI tries (updates, telemetry) goes to a closed loopback
 * port and fails there, so the tests never reach the internet.
 */
const loopbackOnly = {
  HTTP_PROXY: 'http://127.0.0.1:9',
  HTTPS_PROXY: 'http://127.0.0.1:9',
  NO_PROXY: '127.0.0.1,localhost',
};

type Run = { exitCode: number; stdout: string; stderr: string };

function runCli(
  command: string,
  args: readonly string[],
  input: { env: Record<string, string>; cwd: string },
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: input.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...loopbackOnly, ...input.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), runTimeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? -1, stdout, stderr });
    });
  });
}

/** Issue #18: Claude Code and Codex CLI, pinned, run non-interactively against a sandbox gateway and finish. */
describe('coding-agent CLIs against a sandbox gateway', () => {
  let gateway: TestGateway;
  let clients: CliClients;
  let key: string;
  let userId: string;
  let home: string;

  before(
    async () => {
      clients = await installCliClients();
      gateway = await startTestGateway();
      ({ key, userId } = await gateway.createUserWithKey({ balanceMicros: 50_000_000 }));
      home = mkdtempSync(path.join(tmpdir(), 'gateway-cli-home-'));
      mkdirSync(path.join(home, '.codex'));
    },
    { timeout: clientTimeoutMs },
  );
  after(async () => {
    await gateway.close();
    rmSync(home, { recursive: true, force: true });
  });

  const balance = () => sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));

  test('claude -p answers on every family and the calls are billed', { timeout: clientTimeoutMs }, async () => {
    for (const model of familyModels) {
      const before = await balance();
      const run = await runCli(
        clients.claude.command,
        [...clients.claude.args, '-p', 'Reply with one short sentence.', '--model', model, '--output-format', 'json'],
        {
          cwd: home,
          env: {
            HOME: home,
            CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
            ANTHROPIC_BASE_URL: gateway.url,
            ANTHROPIC_API_KEY: key,
            ANTHROPIC_SMALL_FAST_MODEL: model,
            ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
            DISABLE_AUTOUPDATER: '1',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          },
        },
      );
      assert.equal(run.exitCode, 0, `${model}: ${run.stdout}\n${run.stderr}`);
      const result = JSON.parse(run.stdout) as { type: string; is_error: boolean; result: string };
      assert.equal(result.type, 'result', model);
      assert.equal(result.is_error, false, `${model}: ${run.stdout}`);
      assert.ok(result.result.length > 0, model);
      assert.ok((await balance()) < before, `${model}: the run was billed`);
    }
  });

  test(
    'codex exec answers on every family through /v1/responses and the calls are billed',
    { timeout: clientTimeoutMs },
    async () => {
      for (const model of familyModels) {
        const before = await balance();
        const provider = [
          '-c',
          'model_provider="gateway"',
          '-c',
          'model_providers.gateway.name="gateway"',
          '-c',
          `model_providers.gateway.base_url="${gateway.url}/v1"`,
          '-c',
          'model_providers.gateway.env_key="GATEWAY_API_KEY"',
          '-c',
          'model_providers.gateway.wire_api="responses"',
        ];
        const run = await runCli(
          clients.codex.command,
          [
            ...clients.codex.args,
            'exec',
            ...provider,
            '--model',
            model,
            '--skip-git-repo-check',
            '--sandbox',
            'read-only',
            'Reply with one short sentence.',
          ],
          { cwd: home, env: { HOME: home, CODEX_HOME: path.join(home, '.codex'), GATEWAY_API_KEY: key } },
        );
        assert.equal(run.exitCode, 0, `${model}: ${run.stdout}\n${run.stderr}`);
        assert.ok(run.stdout.trim().length > 0, `${model}: no answer`);
        assert.ok((await balance()) < before, `${model}: the run was billed`);
      }
    },
  );
});
