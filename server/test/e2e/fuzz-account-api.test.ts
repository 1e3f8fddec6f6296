import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { preparePythonEnvironment } from '../support/conformance/python-part.ts';
import { runProcess } from '../support/conformance/run-process.ts';
import { signIn } from '../support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const schemathesisFolder = path.resolve(import.meta.dirname, '../../../conformance/schemathesis');

/**
 * Left out of the fuzz run: signing out ends the operator's session, after which every later call would only test the
 * 401 answer. (Deleting the account or changing its password needs the current password, which the fuzzer never has.)
 */
const leftOutPaths = '^/api/auth/logout$';

/**
 * Schemathesis against `/api/openapi.json` of a sandbox gateway, signed in as an operator so every operation is
 * reached past its auth check: no answer may be a 5xx, and every answer must match the document's schema for its
 * status. Bounded (examples per operation, and a time budget), with a fixed seed so a failure can be replayed.
 */
describe('fuzz run of the account API (Schemathesis)', { timeout: 600_000 }, () => {
  let gateway: TestGateway;
  let python: string;

  before(async () => {
    python = await preparePythonEnvironment(schemathesisFolder);
    gateway = await startTestGateway();
    const email = `fuzz-operator-${Date.now()}@example.com`;
    await gateway.createUserWithKey({ role: 'admin', email });
    const session = await signIn(gateway.gateway.url, { email });
    cookieHeader = `Cookie: ${session.cookie}`;
    csrfHeader = `x-csrf-token: ${session.csrfToken}`;
  });
  after(async () => gateway?.close());

  let cookieHeader = '';
  let csrfHeader = '';

  // Its own bound: Schemathesis's 150 s budget plus start-up, beyond the test command's 120 s per test.
  it('finds no server error and no answer outside the schema', { timeout: 400_000 }, async () => {
    // Through the interpreter: the venv's console scripts name the folder it was built in, before its rename.
    const result = await runProcess(
      python,
      [
        '-c',
        'import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())',
        'run',
        `${gateway.gateway.url}/api/openapi.json`,
        '--checks',
        'not_a_server_error,response_schema_conformance',
        '--max-examples',
        '15',
        '--seed',
        '19',
        '--max-time',
        '150',
        '--workers',
        '1',
        // Generous: the machine is shared under the test command; no call should come near it.
        '--request-timeout',
        '30',
        // Nothing kept between runs: each run is the seed's alone.
        '--generation-database',
        'none',
        '--exclude-path-regex',
        leftOutPaths,
        '-H',
        cookieHeader,
        '-H',
        csrfHeader,
        '--no-color',
      ],
      // In a temporary folder: Schemathesis keeps a `.schemathesis/` folder in its working directory.
      { cwd: tmpdir(), env: { SCHEMATHESIS_HOOKS: '', NO_COLOR: '1' } },
    );
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /\d+ passed/, result.output);
  });
});
