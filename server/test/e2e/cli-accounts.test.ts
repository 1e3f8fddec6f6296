import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { callApi, signIn } from '../support/account-api-client.ts';
import { runCli } from '../support/run-cli.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** Polls until the running server answers `/v1/models` with the status (its key cache reloads on its next poll). */
async function waitForKeyStatus(url: string, key: string, status: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const response = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    if (response.status === status) return;
    if (Date.now() > deadline) assert.fail(`the key answered ${response.status}, expected ${status}`);
    await sleep(50);
  }
}

for (const databaseKind of databaseKinds) {
  describe(`operator CLI for accounts on ${databaseKind}`, () => {
    let gateway: TestGateway;
    const email = `cli-person-${databaseKind}@example.com`;
    let key = '';
    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      key = (await gateway.createUserWithKey({ email })).key;
    });
    after(() => gateway.close());

    test('user list shows accounts with their status, verification and balance', async () => {
      const listed = await runCli(gateway.config, ['user', 'list']);
      assert.equal(listed.exitCode, 0, listed.stderr);
      assert.match(listed.stdout, new RegExp(`usr_\\w+\\t${email}\\tuser\\tactive\\tverified\\t1\\.000000 USD`));
    });

    test('user block stops the keys on the running server, unblock restores them', async () => {
      const blocked = await runCli(gateway.config, ['user', 'block', '--email', email]);
      assert.equal(blocked.exitCode, 0, blocked.stderr);
      await waitForKeyStatus(gateway.url, key, 403);
      const unblocked = await runCli(gateway.config, ['user', 'unblock', '--email', email]);
      assert.equal(unblocked.exitCode, 0, unblocked.stderr);
      await waitForKeyStatus(gateway.url, key, 200);
    });

    test('user set-password sets a new password and ends every session', async () => {
      const session = await signIn(gateway.gateway.url, { email });
      const weak = await runCli(gateway.config, ['user', 'set-password', '--email', email, '--password', 'short']);
      assert.notEqual(weak.exitCode, 0);
      assert.match(weak.stderr, /at least 10 characters/);
      const set = await runCli(gateway.config, [
        'user',
        'set-password',
        '--email',
        email,
        '--password',
        'a brand new passphrase',
      ]);
      assert.equal(set.exitCode, 0, set.stderr);
      assert.match(set.stdout, /1 session\(s\) ended/);
      assert.equal((await callApi(gateway.gateway.url, '/api/me', { session })).status, 401);
      await signIn(gateway.gateway.url, { email, password: 'a brand new passphrase' });
    });

    test('key list shows hints, never secrets; key revoke stops the key on the running server', async () => {
      const listed = await runCli(gateway.config, ['key', 'list', '--email', email]);
      assert.equal(listed.exitCode, 0, listed.stderr);
      const [line, ...rest] = listed.stdout.trim().split('\n');
      assert.equal(rest.length, 0);
      const [keyId = '', name, hint] = (line ?? '').split('\t');
      assert.equal(name, 'test');
      assert.equal(hint, `${key.slice(0, hint?.indexOf('…'))}…${key.slice(-4)}`);
      assert.ok(!listed.stdout.includes(key), 'the secret is never printed');
      const wrong = await runCli(gateway.config, ['key', 'revoke', '--email', email, '--id', 'key_unknown']);
      assert.equal(wrong.exitCode, 2);
      const revoked = await runCli(gateway.config, ['key', 'revoke', '--email', email, '--id', keyId]);
      assert.equal(revoked.exitCode, 0, revoked.stderr);
      await waitForKeyStatus(gateway.url, key, 401);
      assert.equal((await runCli(gateway.config, ['key', 'list', '--email', email])).stdout, '');
    });
  });
}
