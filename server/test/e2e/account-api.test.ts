import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { updateUserStatus } from '../../src/db/users.ts';
import {
  loginAttemptsPerMinutePerAddressAndEmail,
  loginAttemptsPerMinutePerIp,
} from '../../src/accounts/throttle-attempt.ts';
import {
  callApi,
  readError,
  readSessionCookie,
  signIn,
  signUp,
  type BrowserSession,
} from '../support/account-api-client.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { testRedisUrl } from '../support/test-redis.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

const password = 'correct horse battery staple';

for (const databaseKind of databaseKinds) {
  describe(`account API: sessions on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let url: string;
    let emailCount = 0;
    const newEmail = () => `person${++emailCount}-${databaseKind}@example.com`;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      url = gateway.url;
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    test('registration signs in with a 30-day HttpOnly SameSite=Lax cookie and credits the welcome balance', async () => {
      const email = newEmail();
      const response = await callApi(url, '/api/auth/register', { body: { email: email.toUpperCase(), password } });
      assert.equal(response.status, 201, response.text);
      const setCookie = response.headers.get('set-cookie') ?? '';
      assert.match(setCookie, /^gw_session=[A-Za-z0-9_-]{43}; /);
      for (const attribute of ['HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=2592000']) {
        assert.ok(setCookie.includes(attribute), `${attribute} in ${setCookie}`);
      }
      assert.ok(!setCookie.includes('Secure'), 'no Secure flag over plain http');
      const forged = await callApi(url, '/api/auth/register', {
        body: { email: newEmail(), password },
        headers: { 'x-forwarded-proto': 'https' },
      });
      assert.equal(forged.status, 201, forged.text);
      assert.ok(
        !(forged.headers.get('set-cookie') ?? '').includes('Secure'),
        'X-Forwarded-Proto from a proxy that TRUST_PROXY does not name is ignored',
      );
      const me = response.json as Record<string, unknown>;
      assert.equal(me.email, email);
      assert.equal(me.role, 'user');
      assert.equal(me.balance_usd, 1);
      assert.equal(me.available_usd, 1);
      assert.equal(typeof me.csrf_token, 'string');
      const session: BrowserSession = {
        cookie: readSessionCookie(response),
        csrfToken: String(me.csrf_token),
        me: me as BrowserSession['me'],
      };
      const again = await callApi(url, '/api/me', { session });
      assert.equal(again.status, 200);
      assert.deepEqual(again.json, me);
      const tokenHash = await gateway.gateway.database.db.selectFrom('sessions').select('token_hash').execute();
      const token = session.cookie.slice('gw_session='.length);
      assert.ok(
        tokenHash.every((row) => row.token_hash !== token),
        'only the hash of the token is stored',
      );
    });

    test('a taken e-mail (in any case) is a 409 and changes no balance', async () => {
      const email = newEmail();
      const first = await signUp(url, { email });
      const duplicate = await callApi(url, '/api/auth/register', {
        body: { email: ` ${email.toUpperCase()} `, password },
      });
      assert.equal(duplicate.status, 409);
      assert.deepEqual(readError(duplicate), {
        message: 'An account with this e-mail already exists.',
        type: 'invalid_request_error',
        param: 'email',
        code: 'email_taken',
      });
      const me = await callApi(url, '/api/me', { session: first });
      assert.equal((me.json as { balance_usd: number }).balance_usd, 1);
      const users = await gateway.gateway.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .execute();
      assert.equal(users.length, 1);
    });

    test('weak passwords, bad e-mails and malformed bodies are 400s naming the field', async () => {
      const cases: Array<[unknown, string | null, string | undefined]> = [
        [{ email: newEmail(), password: 'short' }, 'password', 'weak_password'],
        [{ email: newEmail(), password: 'aaaaaaaaaaaaaa' }, 'password', 'weak_password'],
        [{ email: 'not-an-email', password }, 'email', 'invalid_value'],
        [{ email: newEmail() }, 'password', 'missing_required_parameter'],
        [{ email: 42, password }, 'email', undefined],
      ];
      for (const [body, param, code] of cases) {
        const response = await callApi(url, '/api/auth/register', { body });
        assert.equal(response.status, 400, response.text);
        const error = readError(response);
        assert.equal(error.param, param, response.text);
        if (code) assert.equal(error.code, code, response.text);
      }
      const invalidJson = await callApi(url, '/api/auth/register', { rawBody: '{"email": ' });
      assert.equal(invalidJson.status, 400);
      assert.equal(readError(invalidJson).code, 'invalid_json');
    });

    // That both also cost the same (one Argon2id check of equal cost) is checked without a clock, by counting the
    // hashes sign-in computes: accounts/sign-in.test.ts.
    test('a wrong password and an unknown e-mail get the same 401', async () => {
      const email = newEmail();
      await signUp(url, { email });
      const wrong = await callApi(url, '/api/auth/login', { body: { email, password: 'wrong password 123' } });
      const unknown = await callApi(url, '/api/auth/login', {
        body: { email: `nobody-${emailCount}@example.com`, password: 'wrong password 123' },
      });
      assert.equal(wrong.status, 401);
      assert.equal(unknown.status, 401);
      assert.deepEqual(readError(unknown), readError(wrong));
      assert.equal(readError(wrong).code, 'invalid_credentials');
    });

    test('login starts a new session; without a cookie /api/me is a 401', async () => {
      const email = newEmail();
      await signUp(url, { email });
      const session = await signIn(url, { email: email.toUpperCase() });
      assert.equal((await callApi(url, '/api/me', { session })).status, 200);
      const anonymous = await callApi(url, '/api/me');
      assert.equal(anonymous.status, 401);
      assert.equal(readError(anonymous).code, 'not_signed_in');
      const forged = await callApi(url, '/api/me', { headers: { cookie: `gw_session=${'A'.repeat(43)}` } });
      assert.equal(forged.status, 401);
    });

    test('a state-changing request with a session cookie needs the x-csrf-token of that session', async () => {
      const session = await signUp(url, { email: newEmail() });
      for (const csrfToken of [null, 'wrong-token', `${session.csrfToken}x`]) {
        const response = await callApi(url, '/api/keys', { body: { name: 'ci' }, session, csrfToken });
        assert.equal(response.status, 403, response.text);
        assert.equal(readError(response).code, 'csrf_token_invalid');
        const logout = await callApi(url, '/api/auth/logout', { method: 'POST', session, csrfToken });
        assert.equal(logout.status, 403);
      }
      const keys = await callApi(url, '/api/keys', { session });
      assert.deepEqual(keys.json, { data: [] }, 'no key was created');
      const created = await callApi(url, '/api/keys', { body: { name: 'ci' }, session });
      assert.equal(created.status, 201, created.text);
    });

    test('logout ends the session on the server and clears the cookie', async () => {
      const session = await signUp(url, { email: newEmail() });
      const logout = await callApi(url, '/api/auth/logout', { method: 'POST', session });
      assert.equal(logout.status, 204);
      assert.match(logout.headers.get('set-cookie') ?? '', /^gw_session=; Path=\/; Max-Age=0/);
      assert.equal((await callApi(url, '/api/me', { session })).status, 401);
    });

    test('an expired session is refused by the server whatever the cookie says', async () => {
      const session = await signUp(url, { email: newEmail() });
      await gateway.gateway.database.db
        .updateTable('sessions')
        .set({ expires_at: Date.now() - 1 })
        .where('user_id', '=', session.me.id)
        .execute();
      assert.equal((await callApi(url, '/api/me', { session })).status, 401);
    });

    test('changing the password checks the current one and signs out the other sessions', async () => {
      const email = newEmail();
      const first = await signUp(url, { email });
      const second = await signIn(url, { email });
      const change = (body: unknown) => callApi(url, '/api/me/password', { body, session: first });
      const wrong = await change({ current_password: 'not the password', new_password: 'a new long passphrase' });
      assert.equal(wrong.status, 400);
      assert.equal(readError(wrong).param, 'current_password');
      const weak = await change({ current_password: password, new_password: 'short' });
      assert.equal(weak.status, 400);
      assert.equal(readError(weak).param, 'new_password');
      assert.equal((await change({ current_password: password, new_password: 'a new long passphrase' })).status, 204);
      assert.equal((await callApi(url, '/api/me', { session: second })).status, 401);
      assert.equal((await callApi(url, '/api/me', { session: first })).status, 200);
      assert.equal((await callApi(url, '/api/auth/login', { body: { email, password } })).status, 401);
      await signIn(url, { email, password: 'a new long passphrase' });
    });

    test('a blocked account cannot sign in, and its open sessions stop working', async () => {
      const email = newEmail();
      const session = await signUp(url, { email });
      await updateUserStatus(gateway.gateway.database.db, { userId: session.me.id, status: 'blocked' });
      const login = await callApi(url, '/api/auth/login', { body: { email, password } });
      assert.equal(login.status, 403);
      assert.equal(readError(login).code, 'account_blocked');
      const me = await callApi(url, '/api/me', { session });
      assert.equal(me.status, 403);
      assert.equal(readError(me).code, 'account_blocked');
    });

    test('sign-in attempts are throttled per address and e-mail, then per client address, with Retry-After', async () => {
      const email = newEmail();
      await signUp(url, { email });
      let response;
      // A loaded machine can take longer than the 6 s in which one attempt comes back: allow for a few refills.
      for (let attempt = 0; attempt <= 3 * loginAttemptsPerMinutePerAddressAndEmail; attempt += 1) {
        response = await callApi(url, '/api/auth/login', { body: { email, password: `wrong ${attempt}` } });
        if (response.status === 429) break;
      }
      assert.equal(response?.status, 429);
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
      assert.equal(readError(response).code, 'rate_limit_exceeded');
      const correct = await callApi(url, '/api/auth/login', { body: { email, password } });
      assert.equal(correct.status, 429, 'even the right password waits');
      for (let attempt = 0; attempt <= loginAttemptsPerMinutePerIp; attempt += 1) {
        response = await callApi(url, '/api/auth/login', { body: { email: newEmail(), password } });
        if (response.status === 429) break;
      }
      assert.equal(response.status, 429, 'fresh e-mails from one address are throttled too');
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
    });
  });
}

describe('account API behind https with Redis', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({
      environment: { REDIS_URL: testRedisUrl(), PUBLIC_BASE_URL: 'https://gateway.example.com' },
    });
  });
  after(() => gateway.close());
  afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

  test('the session cookie is Secure when the public address is https', async () => {
    const response = await callApi(gateway.url, '/api/auth/register', {
      body: { email: `secure-${Date.now()}@example.com`, password },
    });
    assert.equal(response.status, 201, response.text);
    assert.match(response.headers.get('set-cookie') ?? '', /; Secure$/);
  });

  test('sign-in throttling counts in Redis', async () => {
    const email = `redis-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= 3 * loginAttemptsPerMinutePerAddressAndEmail; attempt += 1) {
      statuses.push((await callApi(gateway.url, '/api/auth/login', { body: { email, password } })).status);
      if (statuses.at(-1) === 429) break;
    }
    assert.ok(
      statuses.every((status) => status === 401 || status === 429),
      String(statuses),
    );
    assert.equal(statuses.at(-1), 429);
  });
});

describe('account API behind a TLS-terminating proxy that TRUST_PROXY names', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ environment: { TRUST_PROXY: '127.0.0.1' } });
  });
  after(() => gateway.close());
  afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

  test('the session cookie is Secure when the request came over https, and only then', async () => {
    const viaTls = await callApi(gateway.url, '/api/auth/register', {
      body: { email: `tls-${Date.now()}@example.com`, password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    assert.equal(viaTls.status, 201, viaTls.text);
    assert.match(viaTls.headers.get('set-cookie') ?? '', /; Secure$/);
    const session: BrowserSession = {
      cookie: readSessionCookie(viaTls),
      csrfToken: String((viaTls.json as { csrf_token: string }).csrf_token),
      me: viaTls.json as BrowserSession['me'],
    };
    const logout = await callApi(gateway.url, '/api/auth/logout', {
      method: 'POST',
      session,
      headers: { 'x-forwarded-proto': 'https' },
    });
    assert.equal(logout.status, 204);
    assert.match(logout.headers.get('set-cookie') ?? '', /Max-Age=0.*; Secure/, 'the cookie is cleared the same way');
    const plain = await callApi(gateway.url, '/api/auth/register', {
      body: { email: `plain-${Date.now()}@example.com`, password },
    });
    assert.equal(plain.status, 201, plain.text);
    assert.ok(!(plain.headers.get('set-cookie') ?? '').includes('Secure'), 'plain http through the same proxy');
  });
});
