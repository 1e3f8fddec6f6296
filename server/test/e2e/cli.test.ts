import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/config.ts';
import { runCli } from '../support/run-cli.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return Date.now() - started;
    await sleep(50);
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

for (const databaseKind of databaseKinds) {
  describe(`operator CLI on ${databaseKind}, beside a running server`, () => {
    let gateway: TestGateway;
    before(async () => {
      gateway = await startTestGateway({ databaseKind });
    });
    after(() => gateway.close());

    test('creates a user and a key that the running server accepts at once', async () => {
      const created = await runCli(gateway.config, [
        'user',
        'create',
        '--email',
        'Op@Example.com',
        '--password',
        'a long password',
        '--admin',
        '--balance-usd',
        '25',
      ]);
      assert.equal(created.exitCode, 0, created.stderr);
      assert.match(created.stdout, /created admin op@example.com .* balance 25\.000000 USD/);
      const issued = await runCli(gateway.config, ['key', 'create', '--email', 'op@example.com', '--name', 'laptop']);
      assert.equal(issued.exitCode, 0, issued.stderr);
      const key = issued.stdout.trim();
      assert.match(key, /^sk-[A-Za-z0-9_-]{43}$/);
      const response = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200);
    });

    test('credits a balance through the ledger, once per idempotency key', async () => {
      const args = [
        'balance',
        'credit',
        '--email',
        'op@example.com',
        '--usd',
        '10.5',
        '--reason',
        'bank transfer',
        '--idempotency-key',
        'wire-77',
      ];
      const first = await runCli(gateway.config, args);
      assert.equal(first.exitCode, 0, first.stderr);
      assert.match(first.stdout, /credited 10\.500000 USD .* balance 35\.500000 USD/);
      const repeat = await runCli(gateway.config, args);
      assert.match(repeat.stdout, /already applied .* balance 35\.500000 USD/);
    });

    test('a price change reaches the running server within a second', async () => {
      const changed = await runCli(gateway.config, [
        'model',
        'set-price',
        '--model',
        'gpt-4o-mini',
        '--input-usd',
        '0.11',
        '--output-usd',
        '0.44',
        // Below gpt-4o-mini's list price, which its sandbox route costs: a loss the operator must confirm.
        '--confirm-below-cost',
      ]);
      assert.equal(changed.exitCode, 0, changed.stderr);
      const elapsed = await waitFor(async () => {
        const list = (await (await fetch(`${gateway.url}/api/models`)).json()) as {
          data: Array<{ id: string; input_usd_per_million: number; output_usd_per_million: number }>;
        };
        const model = list.data.find((entry) => entry.id === 'gpt-4o-mini');
        return model?.input_usd_per_million === 0.11 && model.output_usd_per_million === 0.44;
      }, 3000);
      assert.ok(elapsed < 1500, `took ${elapsed} ms`);
      const listed = await runCli(gateway.config, ['model', 'list']);
      assert.match(listed.stdout, /gpt-4o-mini\s+OpenAI\s+text\s+in 0\.110000 out 0\.440000/);
      // An image model's stored price is the flat one its tiers scale from, not the default-request price the model
      // lists show: labelled so.
      assert.match(
        listed.stdout,
        /gpt-image-1\s+OpenAI\s+image\s+flat 0\.033600 USD\/image, \d+ price tiers \(model image-tiers --model gpt-image-1\)/,
      );
      assert.match(listed.stdout, /flux-pro-1\.1\s+Black Forest Labs\s+image\s+flat \d+\.\d{6} USD\/image  margin /);
    });

    test('routes: add (credential never printed), list, disable; a private address is refused', async () => {
      const refused = await runCli(gateway.config, [
        'route',
        'add',
        '--model',
        'gpt-4o',
        '--provider',
        'openai',
        '--base-url',
        'http://10.0.0.5/v1',
        '--api-key',
        'sk-secret-vendor-key',
      ]);
      assert.equal(refused.exitCode, 1);
      assert.match(refused.stderr, /private or loopback/);
      const added = await runCli(gateway.config, [
        'route',
        'add',
        '--model',
        'gpt-4o',
        '--provider',
        'openai',
        '--base-url',
        'https://api.openai.com/v1',
        '--api-key',
        'sk-secret-vendor-key',
        '--priority',
        '5',
      ]);
      assert.equal(added.exitCode, 0, added.stderr);
      const routeId = /added route (\S+)/.exec(added.stdout)?.[1] ?? '';
      const listed = await runCli(gateway.config, ['route', 'list']);
      assert.match(listed.stdout, new RegExp(`${routeId}\\s+gpt-4o\\s+openai`));
      assert.doesNotMatch(listed.stdout, /sk-secret-vendor-key/);
      const disabled = await runCli(gateway.config, ['route', 'disable', '--id', routeId]);
      assert.equal(disabled.exitCode, 0);
      assert.match((await runCli(gateway.config, ['route', 'list'])).stdout, /disabled/);
    });

    test('bad arguments end with one clear message and a non-zero exit', async () => {
      const cases: Array<[readonly string[], RegExp, number]> = [
        [['user', 'create', '--email', 'x@example.com'], /missing --password/, 2],
        [['migrate', 'now'], /migrate takes no arguments, got "now"/, 2],
        [['balance', 'credit', '--email', 'op@example.com', '--usd=-5', '--reason', 'r'], /positive amount/, 2],
        [['balance', 'credit', '--email', 'op@example.com', '--usd', 'ten', '--reason', 'r'], /positive amount/, 2],
        [
          [
            'route',
            'add',
            '--model',
            'gpt-4o',
            '--provider',
            'nope',
            '--base-url',
            'https://x.example',
            '--api-key',
            'k',
          ],
          /Unknown provider/,
          1,
        ],
        [
          ['route', 'add', '--model', 'gpt-4o', '--provider', 'openai', '--base-url', 'not a url', '--api-key', 'k'],
          /not a valid URL/,
          1,
        ],
        [
          [
            'route',
            'add',
            '--model',
            'gpt-4o',
            '--provider',
            'openai',
            '--base-url',
            'https://x.example',
            '--api-key',
            'k',
            '--weight',
            '-1',
          ],
          /weight/,
          2,
        ],
        [
          ['route', 'add', '--model', 'gpt-4o', '--provider', 'openai', '--base-url', 'https://x.example'],
          /Routes to `openai` need a credential/,
          1,
        ],
        [['frobnicate'], /unknown command/, 2],
        [['user', 'create', '--email', 'op@example.com', '--password', 'a long password'], /already exists/, 1],
      ];
      for (const [args, message, exitCode] of cases) {
        const result = await runCli(gateway.config, args);
        assert.equal(result.exitCode, exitCode, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, message);
        assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      }
    });
  });
}

describe('operator CLI arguments checked before the database', () => {
  test('migrate with a stray argument is refused without opening or migrating any database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-cli-'));
    try {
      const result = await runCli(parseConfig({ DATA_DIR: dataDir }), ['migrate', 'now']);
      assert.equal(result.exitCode, 2, result.stderr);
      assert.match(result.stderr, /migrate takes no arguments, got "now"/);
      assert.deepEqual(readdirSync(dataDir), [], 'no database file, no key file: nothing was touched');
      const migrated = await runCli(parseConfig({ DATA_DIR: dataDir }), ['migrate']);
      assert.equal(migrated.exitCode, 0, migrated.stderr);
      assert.notDeepEqual(readdirSync(dataDir), [], 'without the stray argument the database is created');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
