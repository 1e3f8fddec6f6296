import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateSync } from 'otplib';
import type { SecurityEventList } from '../../../contract/audit.ts';
import type { TotpEnrolment, TotpRecoveryCodes, TotpStatus } from '../../../contract/totp.ts';
import { callApi, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { runCli } from '../support/run-cli.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** The code an authenticator app shows `offsetSeconds` from now. */
const codeAt = (secret: string, offsetSeconds = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

for (const databaseKind of databaseKinds) {
  describe(`operator second factor on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let emailCount = 0;
    before(async () => {
      gateway = await startTestGateway({ databaseKind, environment: { REQUIRE_OPERATOR_TOTP: 'true' } });
    });
    after(() => gateway.close());

    const newOperator = async () => {
      const email = `totp${++emailCount}-${databaseKind}@example.com`;
      const { userId } = await gateway.createUserWithKey({ role: 'admin', email });
      return { userId, email, session: await signIn(gateway.url, { email }) };
    };
    const operatorApi = (session: BrowserSession) => callApi(gateway.url, '/api/operator/users', { session });
    const errorCode = (response: { json: unknown }) => (response.json as { error: { code: string } }).error.code;
    const enrol = async (session: BrowserSession) => {
      const started = await callApi(gateway.url, '/api/me/totp/enrolment', { session, body: {} });
      assert.equal(started.status, 201, started.text);
      return started.json as TotpEnrolment;
    };

    test('an operator must enrol before using the operator API; the first code enables it', async () => {
      const operator = await newOperator();
      const refused = await operatorApi(operator.session);
      assert.equal(refused.status, 403);
      assert.equal(errorCode(refused), 'totp_enrolment_required');
      const status = await callApi(gateway.url, '/api/me/totp', { session: operator.session });
      assert.deepEqual(status.json as TotpStatus, {
        is_enabled: false,
        is_required: true,
        is_session_verified: false,
        recovery_codes_left: 0,
      });
      const enrolment = await enrol(operator.session);
      assert.match(enrolment.otpauth_uri, /^otpauth:\/\/totp\/Gateway:.+\?secret=[A-Z2-7]+&issuer=Gateway$/);
      assert.match(enrolment.qr_svg, /^<svg[\s\S]*<\/svg>\s*$/);
      const stored = await gateway.gateway.database.db
        .selectFrom('totp_credentials')
        .selectAll()
        .where('user_id', '=', operator.userId)
        .executeTakeFirstOrThrow();
      assert.ok(!stored.secret_ciphertext.includes(enrolment.secret), 'the secret is sealed at rest');
      const wrong = await callApi(gateway.url, '/api/me/totp/confirm', {
        session: operator.session,
        body: { code: codeAt(enrolment.secret, -600) },
      });
      assert.equal(wrong.status, 400);
      assert.equal(errorCode(wrong), 'invalid_totp_code');
      const confirmed = await callApi(gateway.url, '/api/me/totp/confirm', {
        session: operator.session,
        body: { code: codeAt(enrolment.secret) },
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      const codes = (confirmed.json as TotpRecoveryCodes).recovery_codes;
      assert.equal(codes.length, 10);
      assert.equal(new Set(codes).size, 10);
      assert.equal((await operatorApi(operator.session)).status, 200, 'the enrolling session is verified');
      const again = await callApi(gateway.url, '/api/me/totp/enrolment', { session: operator.session, body: {} });
      assert.equal(again.status, 409, 'a confirmed second factor is not replaced from the browser');
    });

    test('a new session passes with a fresh code or a recovery code, each accepted once', async () => {
      const operator = await newOperator();
      const { secret } = await enrol(operator.session);
      const used = codeAt(secret);
      const confirmed = await callApi(gateway.url, '/api/me/totp/confirm', {
        session: operator.session,
        body: { code: used },
      });
      const [recoveryCode] = (confirmed.json as TotpRecoveryCodes).recovery_codes as [string];
      const second = await signIn(gateway.url, { email: operator.email });
      const gated = await operatorApi(second);
      assert.equal(gated.status, 403);
      assert.equal(errorCode(gated), 'second_factor_required');
      const replay = await callApi(gateway.url, '/api/auth/totp', { session: second, body: { code: used } });
      assert.equal(replay.status, 400, 'the code that confirmed the enrolment cannot sign in again');
      const fresh = await callApi(gateway.url, '/api/auth/totp', {
        session: second,
        body: { code: codeAt(secret, 30) },
      });
      assert.equal(fresh.status, 204, fresh.text);
      assert.equal((await operatorApi(second)).status, 200);
      const third = await signIn(gateway.url, { email: operator.email });
      const byRecovery = await callApi(gateway.url, '/api/auth/totp', { session: third, body: { code: recoveryCode } });
      assert.equal(byRecovery.status, 204, byRecovery.text);
      assert.equal((await operatorApi(third)).status, 200);
      const status = await callApi(gateway.url, '/api/me/totp', { session: third });
      assert.equal((status.json as TotpStatus).recovery_codes_left, 9);
      const fourth = await signIn(gateway.url, { email: operator.email });
      const spent = await callApi(gateway.url, '/api/auth/totp', { session: fourth, body: { code: recoveryCode } });
      assert.equal(spent.status, 400, 'a recovery code is good once');
    });

    test('wrong codes are throttled', async () => {
      const operator = await newOperator();
      const { secret } = await enrol(operator.session);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const response = await callApi(gateway.url, '/api/me/totp/confirm', {
          session: operator.session,
          body: { code: codeAt(secret, -3600 - attempt * 60) },
        });
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429]);
      const right = await callApi(gateway.url, '/api/me/totp/confirm', {
        session: operator.session,
        body: { code: codeAt(secret) },
      });
      assert.equal(right.status, 429, 'even a right code waits out the throttle');
    });

    test('customers cannot enrol; the CLI resets a locked-out operator, and both show as security events', async () => {
      const email = `totp-customer-${databaseKind}@example.com`;
      await gateway.createUserWithKey({ email });
      const customer = await signIn(gateway.url, { email });
      const refused = await callApi(gateway.url, '/api/me/totp/enrolment', { session: customer, body: {} });
      assert.equal(refused.status, 403);
      const operator = await newOperator();
      const { secret } = await enrol(operator.session);
      await callApi(gateway.url, '/api/me/totp/confirm', { session: operator.session, body: { code: codeAt(secret) } });
      const reset = await runCli(gateway.config, ['operator', 'reset-totp', '--email', operator.email]);
      assert.equal(reset.exitCode, 0, reset.stderr);
      assert.match(reset.stdout, /second factor of .* removed/);
      const afterReset = await operatorApi(operator.session);
      assert.equal(errorCode(afterReset), 'totp_enrolment_required', 'the old verification ends with the factor');
      const events = await callApi(gateway.url, '/api/security-events', { session: operator.session });
      assert.deepEqual((events.json as SecurityEventList).data.map((event) => event.action).slice(0, 2), [
        'totp_reset',
        'totp_enabled',
      ]);
      await enrol(operator.session);
    });
  });
}
