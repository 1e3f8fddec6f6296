import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/run-cli.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

describe('route settings through the CLI', () => {
  let gateway: TestGateway;

  before(async () => {
    gateway = await startTestGateway();
  });
  after(() => gateway.close());

  const cli = (...args: string[]) => runCli(gateway.config, ['route', ...args]);

  test('an Azure route with costs, a cap, timeouts and a reserved account; update and clear; no credential shown', async () => {
    const { userId } = await gateway.createUserWithKey();
    const added = await cli(
      'add',
      '--model',
      'gpt-4o',
      '--provider',
      'azure',
      '--base-url',
      'https://contoso.openai.azure.com',
      '--api-key',
      'azure-secret-key-123',
      '--upstream-model',
      'gpt4o-prod',
      '--api-version',
      '2024-10-21',
      '--input-cost-usd',
      '2.5',
      '--output-cost-usd',
      '10',
      '--max-concurrency',
      '16',
      '--first-byte-timeout-ms',
      '20000',
      '--reserved-for',
      userId,
    );
    assert.equal(added.exitCode, 0, added.stderr);
    const routeId = /added route (\S+)/.exec(added.stdout)?.[1] ?? '';
    let listed = (await cli('list')).stdout;
    assert.match(
      listed,
      new RegExp(
        `${routeId}.*input_cost=\\$?2\\.5.*/1M.*max_concurrency=16.*first_byte_timeout_ms=20000.*reserved_for=${userId}.*api_version=2024-10-21`,
      ),
    );
    assert.doesNotMatch(listed, /azure-secret-key-123/);

    const updated = await cli(
      'update',
      '--id',
      routeId,
      '--max-concurrency',
      'none',
      '--weight',
      '4',
      '--api-key',
      'rotated-key',
    );
    assert.equal(updated.exitCode, 0, updated.stderr);
    listed = (await cli('list')).stdout;
    assert.match(listed, new RegExp(`${routeId}.*weight=4`));
    assert.doesNotMatch(listed, /max_concurrency/);
    assert.doesNotMatch(listed, /rotated-key/);
  });

  test('bad settings are refused with a message naming them', async () => {
    const vertex = await cli(
      'add',
      '--model',
      'gemini-2.5-flash',
      '--provider',
      'vertex',
      '--base-url',
      'https://us-central1-aiplatform.googleapis.com',
      '--api-key',
      'token',
    );
    assert.equal(vertex.exitCode, 1);
    assert.match(vertex.stderr, /project id/);
    const weight = await cli(
      'add',
      '--model',
      'gpt-4o',
      '--provider',
      'openai',
      '--base-url',
      'https://api.openai.com/v1',
      '--api-key',
      'k',
      '--weight=-2',
    );
    assert.notEqual(weight.exitCode, 0);
    assert.match(weight.stderr, /--weight must be a whole number/);
    const reserved = await cli(
      'add',
      '--model',
      'gpt-4o',
      '--provider',
      'openai',
      '--base-url',
      'https://api.openai.com/v1',
      '--api-key',
      'k',
      '--reserved-for',
      'usr_nobody',
    );
    assert.match(reserved.stderr, /No account has the id "usr_nobody"/);
    const missing = await cli('update', '--id', 'rte_missing', '--weight', '2');
    assert.match(missing.stderr, /No route has the id "rte_missing"/);
  });

  test('the SSRF guard: a private address, or a name resolving to loopback, is refused on add and update', async () => {
    const add = (baseUrl: string) =>
      cli('add', '--model', 'gpt-4o', '--provider', 'openai', '--base-url', baseUrl, '--api-key', 'k');
    for (const baseUrl of ['http://10.0.0.5/v1', 'http://[::ffff:127.0.0.1]:8000/v1', 'http://198.18.0.1/v1']) {
      const refused = await add(baseUrl);
      assert.equal(refused.exitCode, 1, baseUrl);
      assert.match(refused.stderr, /private_upstream_refused|ALLOW_PRIVATE_UPSTREAMS=true/, baseUrl);
    }
    const named = await add('http://localhost:11434/v1');
    assert.equal(named.exitCode, 1);
    assert.match(named.stderr, /localhost, which resolves to (127\.0\.0\.1|::1), is a loopback address/);
    const accepted = await add('https://api.openai.com/v1');
    assert.equal(accepted.exitCode, 0, accepted.stderr);
    const routeId = /added route (\S+)/.exec(accepted.stdout)?.[1] ?? '';
    const moved = await cli('update', '--id', routeId, '--base-url', 'http://localhost:8000/v1');
    assert.equal(moved.exitCode, 1);
    assert.match(moved.stderr, /resolves to/);
    assert.match((await cli('list')).stdout, new RegExp(`${routeId}.*https://api\\.openai\\.com/v1`));
  });
});
