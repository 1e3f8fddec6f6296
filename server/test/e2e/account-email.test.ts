import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib/v1';
import type { Me } from '../../../contract/auth.ts';
import type { Mailer } from '../../src/mail/mailer.ts';
import { callApi, readError, signIn, signUp } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { readLink, startTestSmtpServer, type TestSmtpServer } from '../support/test-smtp-server.ts';

const password = 'correct horse battery staple';
const newPassword = 'a different long passphrase';

/** Solves the gateway's challenge as the web app does: the number whose SHA-256 with the salt is the challenge. */
async function solveSignUpChallenge(url: string): Promise<Record<string, unknown>> {
  const response = await callApi(url, '/api/auth/challenge');
  assert.equal(response.status, 200, response.text);
  const challenge = response.json as { challenge: string; salt: string; maxnumber: number; signature: string };
  const solution = await solveChallenge(challenge.challenge, challenge.salt, 'SHA-256', challenge.maxnumber).promise;
  assert.ok(solution, 'the challenge has a solution under maxnumber');
  return {
    algorithm: 'SHA-256',
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
}

/** Waits until the gateway has sent (or kept) every mail posted so far: its deps hold the whole mailer. */
async function flushMail(gateway: TestGateway): Promise<void> {
  await (gateway.gateway.deps.mailer as Mailer).flush();
}

for (const databaseKind of databaseKinds) {
  describe(`account mail over SMTP on ${databaseKind}`, () => {
    let smtp: TestSmtpServer;
    let gateway: TestGateway;
    let url: string;
    let emailCount = 0;
    const newEmail = () => `mail${++emailCount}-${databaseKind}@example.com`;

    before(async () => {
      smtp = await startTestSmtpServer();
      gateway = await startTestGateway({
        databaseKind,
        environment: {
          ...smtp.environment,
          WELCOME_BALANCE_AT: 'verification',
          SIGNUP_ABUSE_CHECKS: 'on',
          SIGNUP_CHALLENGE_MAX_NUMBER: '2000',
          SIGNUPS_PER_ADDRESS_PER_DAY: '100',
          SIGNUPS_PER_NETWORK_PER_DAY: '100',
        },
      });
      url = gateway.gateway.url;
    });
    after(async () => {
      await gateway.close();
      await smtp.close();
    });
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    test('sign-up mails a verification link; the welcome balance is credited once, when it is used', async () => {
      const email = newEmail();
      const response = await callApi(url, '/api/auth/register', {
        body: { email, password, locale: 'ru', altcha: await solveSignUpChallenge(url) },
      });
      assert.equal(response.status, 201, response.text);
      const me = response.json as Me;
      assert.equal(me.email_verified, false);
      assert.equal(me.balance_usd, 0, 'no welcome balance before the address is verified');

      const mail = await smtp.waitForMail(email);
      assert.equal(mail.from, 'noreply@gateway.test');
      assert.equal(mail.subject, 'Подтвердите адрес электронной почты', 'written in the language chosen at sign-up');
      assert.ok(mail.html.includes('<a href="'), 'an HTML part with the link as a button');
      const link = readLink(mail, '/verify-email');
      assert.equal(link.origin, gateway.config.publicBaseUrl);
      const token = link.searchParams.get('token') ?? '';

      const verified = await callApi(url, '/api/auth/verify-email', { body: { token } });
      assert.equal(verified.status, 200, verified.text);
      assert.deepEqual(verified.json, { email, welcome_credited_usd: 1 });
      const session = await signIn(url, { email });
      assert.equal(session.me.email_verified, true);
      assert.equal(session.me.balance_usd, 1);

      const again = await callApi(url, '/api/auth/verify-email', { body: { token } });
      assert.equal(again.status, 400);
      assert.equal(readError(again).code, 'link_used');
      assert.equal((await signIn(url, { email })).me.balance_usd, 1, 'a reused link credits nothing');
      const unknown = await callApi(url, '/api/auth/verify-email', { body: { token: `${token}x` } });
      assert.equal(readError(unknown).code, 'invalid_link');
    });

    test('a new verification link voids the earlier one', async () => {
      const email = newEmail();
      const session = await signUp(url, { email, altcha: await solveSignUpChallenge(url) });
      const first = readLink(await smtp.waitForMail(email), '/verify-email').searchParams.get('token') ?? '';
      const resend = await callApi(url, '/api/me/verification-mail', { method: 'POST', session });
      assert.equal(resend.status, 204, resend.text);
      const second = readLink(await smtp.waitForMail(email), '/verify-email').searchParams.get('token') ?? '';
      assert.notEqual(first, second);
      assert.equal(
        readError(await callApi(url, '/api/auth/verify-email', { body: { token: first } })).code,
        'link_used',
      );
      assert.equal((await callApi(url, '/api/auth/verify-email', { body: { token: second } })).status, 200);
    });

    test('password reset: one answer for known and unknown addresses, a single-use link, every session ended', async () => {
      const email = newEmail();
      const session = await signUp(url, { email, altcha: await solveSignUpChallenge(url) });
      await smtp.waitForMail(email);
      const unknownEmail = `nobody-${databaseKind}@example.com`;
      const forUnknown = await callApi(url, '/api/auth/forgot-password', {
        body: { email: unknownEmail, altcha: await solveSignUpChallenge(url) },
      });
      const forKnown = await callApi(url, '/api/auth/forgot-password', {
        body: { email: email.toUpperCase(), altcha: await solveSignUpChallenge(url) },
      });
      assert.equal(forUnknown.status, 204);
      assert.equal(forKnown.status, 204);
      assert.equal(forUnknown.text, forKnown.text);

      const mail = await smtp.waitForMail(email);
      assert.equal(mail.subject, 'Reset your password');
      const token = readLink(mail, '/reset-password').searchParams.get('token') ?? '';
      const weak = await callApi(url, '/api/auth/reset-password', { body: { token, password: 'short' } });
      assert.equal(readError(weak).code, 'weak_password', 'a weak password does not spend the link');
      const reset = await callApi(url, '/api/auth/reset-password', { body: { token, password: newPassword } });
      assert.equal(reset.status, 204, reset.text);

      assert.equal((await callApi(url, '/api/me', { session })).status, 401, 'the old session ended');
      const oldLogin = await callApi(url, '/api/auth/login', { body: { email, password } });
      assert.equal(oldLogin.status, 401);
      await signIn(url, { email, password: newPassword });
      const reused = await callApi(url, '/api/auth/reset-password', {
        body: { token, password: 'yet another passphrase' },
      });
      assert.equal(readError(reused).code, 'link_used');
      await flushMail(gateway);
      assert.equal(
        smtp.received.filter((received) => received.to === unknownEmail).length,
        0,
        'no mail to an address without an account',
      );
    });

    test('the proof of work is required, checked, and good for one sign-up', async () => {
      const missing = await callApi(url, '/api/auth/register', { body: { email: newEmail(), password } });
      assert.equal(missing.status, 400);
      assert.deepEqual([readError(missing).code, readError(missing).param], ['challenge_required', 'altcha']);
      const answer = await solveSignUpChallenge(url);
      const forged = await callApi(url, '/api/auth/register', {
        body: { email: newEmail(), password, altcha: { ...answer, number: Number(answer.number) + 1 } },
      });
      assert.equal(readError(forged).code, 'challenge_failed');
      const unsigned = await callApi(url, '/api/auth/register', {
        body: { email: newEmail(), password, altcha: { ...answer, signature: '0'.repeat(64) } },
      });
      assert.equal(readError(unsigned).code, 'challenge_failed');
      const first = await callApi(url, '/api/auth/register', { body: { email: newEmail(), password, altcha: answer } });
      assert.equal(first.status, 201, first.text);
      const replay = await callApi(url, '/api/auth/register', {
        body: { email: newEmail(), password, altcha: answer },
      });
      assert.equal(readError(replay).code, 'challenge_failed', 'a solved challenge opens one account');
      const reset = await callApi(url, '/api/auth/forgot-password', { body: { email: newEmail() } });
      assert.equal(readError(reset).code, 'challenge_required');
    });

    test('creating a key mails the account its name and hint, never the key; alert settings round-trip', async () => {
      const email = newEmail();
      const session = await signUp(url, { email, altcha: await solveSignUpChallenge(url) });
      await smtp.waitForMail(email);
      const created = await callApi(url, '/api/keys', { session, body: { name: 'laptop' } });
      assert.equal(created.status, 201, created.text);
      const { key } = created.json as { key: string };
      const mail = await smtp.waitForMail(email);
      assert.equal(mail.subject, 'A new API key was created');
      assert.ok(mail.text.includes('"laptop"'));
      assert.ok(mail.text.includes(key.slice(-4)));
      assert.ok(!mail.text.includes(key) && !mail.html.includes(key), 'the key itself is never mailed');
      const set = await callApi(url, '/api/me/alerts', { method: 'PUT', session, body: { low_balance_usd: 0.25 } });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual((await callApi(url, '/api/me/alerts', { session })).json, { low_balance_usd: 0.25 });
      const tooFine = await callApi(url, '/api/me/alerts', {
        method: 'PUT',
        session,
        body: { low_balance_usd: 0.0000001 },
      });
      assert.equal(readError(tooFine).param, 'low_balance_usd');
    });

    test('the operator mails a reset link; the operator outbox stays empty while SMTP sends', async () => {
      const email = newEmail();
      const user = await gateway.createUserWithKey({ email });
      const operator = await gateway.createUserWithKey({
        role: 'admin',
        email: `operator-${databaseKind}@example.com`,
      });
      assert.ok(operator.userId);
      const operatorSession = await signIn(url, { email: `operator-${databaseKind}@example.com` });
      const sent = await callApi(url, `/api/operator/users/${user.userId}/password-reset`, {
        method: 'POST',
        session: operatorSession,
      });
      assert.equal(sent.status, 204, sent.text);
      const token = readLink(await smtp.waitForMail(email), '/reset-password').searchParams.get('token') ?? '';
      assert.equal(
        (await callApi(url, '/api/auth/reset-password', { body: { token, password: newPassword } })).status,
        204,
      );
      const outbox = await callApi(url, '/api/operator/outbox', { session: operatorSession });
      assert.deepEqual(outbox.json, { delivery: 'smtp', data: [] });
      const userSession = await signIn(url, { email, password: newPassword });
      const refused = await callApi(url, '/api/operator/outbox', { session: userSession });
      assert.equal(refused.status, 403);
    });
  });
}

describe('account mail without SMTP: the operator outbox', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ environment: { WELCOME_BALANCE_AT: 'verification' } });
  });
  after(() => gateway.close());

  test('mail is kept in the outbox, which says it is not sent; its link works', async () => {
    const url = gateway.gateway.url;
    const email = 'outbox-person@example.com';
    await signUp(url, { email });
    await flushMail(gateway);
    await gateway.createUserWithKey({ role: 'admin', email: 'outbox-operator@example.com' });
    const operator = await signIn(url, { email: 'outbox-operator@example.com' });
    const outbox = await callApi(url, `/api/operator/outbox?to=${encodeURIComponent(email)}`, { session: operator });
    assert.equal(outbox.status, 200, outbox.text);
    const body = outbox.json as { delivery: string; data: { kind: string; to: string; text: string; html: string }[] };
    assert.equal(body.delivery, 'outbox');
    assert.equal(body.data.length, 1);
    const [kept] = body.data;
    assert.equal(kept?.kind, 'verify-email');
    assert.equal(kept?.to, email);
    const token = /\/verify-email\?token=([\w%-]+)/.exec(kept?.text ?? '')?.[1] ?? '';
    const verified = await callApi(url, '/api/auth/verify-email', { body: { token: decodeURIComponent(token) } });
    assert.equal(verified.status, 200, verified.text);
    assert.equal((await signIn(url, { email })).me.balance_usd, 1);
  });
});
