import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { findUserById, insertUser } from '../db/users.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { cryptoIds } from '../lib/ids.ts';
import { consumeAccountLink, issueAccountLink } from './account-link.ts';
import { checkSignUpLimits, hashSignUpOrigin, networkOf } from './sign-up-limits.ts';

const hourMs = 3_600_000;

/** The error code a promise is refused with. */
async function refusalCode(promise: Promise<unknown>): Promise<string | null | undefined> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    return error.code;
  }
  assert.fail('expected a refusal');
}

for (const kind of databaseKinds) {
  describe(`single-use account links and sign-up limits on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let nowMs = 1_700_000_000_000;
    const clock = { nowMs: () => nowMs };
    const deps = () => ({ db: handle.db, clock, ids: cryptoIds });
    const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      await insertUser(handle.db, {
        id: 'usr_link',
        email: 'l@example.com',
        password_hash: 'x',
        role: 'user',
        created_at: 1,
      });
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    test('an account from before migration 0050 counts as verified', async () => {
      await insertUser(handle.db, {
        id: 'usr_unverified',
        email: 'u@example.com',
        password_hash: 'x',
        role: 'user',
        created_at: 2,
      });
      const user = await findUserById(handle.db, 'usr_unverified');
      assert.equal(user?.email_verified_at, null, 'a new row without a verification time is unverified');
      assert.equal(user?.locale, 'en');
    });

    test('a link works until it expires, once, and only for its purpose', async () => {
      const input = {
        userId: 'usr_link',
        purpose: 'reset_password',
        ttlMs: hourMs,
        publicBaseUrl: 'https://gw.example',
      } as const;
      const url = await issueAccountLink(deps(), input);
      assert.match(url, /^https:\/\/gw\.example\/reset-password\?token=[\w-]{43}$/);
      const token = tokenOf(url);
      assert.equal(await refusalCode(consumeAccountLink(deps(), { token, purpose: 'verify_email' })), 'invalid_link');
      nowMs += hourMs;
      assert.equal(await refusalCode(consumeAccountLink(deps(), { token, purpose: 'reset_password' })), 'link_expired');
      nowMs -= 1;
      assert.deepEqual(await consumeAccountLink(deps(), { token, purpose: 'reset_password' }), { userId: 'usr_link' });
      assert.equal(await refusalCode(consumeAccountLink(deps(), { token, purpose: 'reset_password' })), 'link_used');
    });

    test('two uses of one link at once: exactly one wins', async () => {
      const url = await issueAccountLink(deps(), {
        userId: 'usr_link',
        purpose: 'verify_email',
        ttlMs: hourMs,
        publicBaseUrl: 'https://gw.example',
      });
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () => consumeAccountLink(deps(), { token: tokenOf(url), purpose: 'verify_email' })),
      );
      assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
    });

    test('sign-ups are counted per address and per /24 or /64 network; disposable domains are refused', async () => {
      const limits = {
        perAddressPerDay: 2,
        perNetworkPerDay: 3,
        disposableEmailDomains: new Set(['tempmail.example']),
      };
      const limitDeps = { ...deps(), signUpLimits: limits };
      const signUpFrom = async (id: string, clientIp: string) => {
        const origin = await checkSignUpLimits(limitDeps, { email: `${id}@example.com`, clientIp });
        await insertUser(handle.db, {
          id,
          email: `${id}@example.com`,
          password_hash: 'x',
          role: 'user',
          created_at: nowMs,
          signup_address_hash: origin.addressHash,
          signup_network_hash: origin.networkHash,
        });
      };
      await signUpFrom('usr_a1', '203.0.113.7');
      await signUpFrom('usr_a2', '203.0.113.7');
      assert.equal(await refusalCode(signUpFrom('usr_a3', '203.0.113.7')), 'rate_limit_exceeded');
      await signUpFrom('usr_b1', '203.0.113.8');
      assert.equal(await refusalCode(signUpFrom('usr_b2', '203.0.113.9')), 'rate_limit_exceeded', 'the /24 is full');
      await signUpFrom('usr_c1', '198.51.100.1');
      nowMs += 24 * hourMs + 1;
      await signUpFrom('usr_a4', '203.0.113.7');
      assert.equal(
        await refusalCode(checkSignUpLimits(limitDeps, { email: 'x@mx.TempMail.example', clientIp: '192.0.2.1' })),
        'disposable_email',
      );
    });

    test('networks: IPv4 /24 (mapped too) and IPv6 /64 in its full form', () => {
      assert.equal(networkOf('203.0.113.7'), '203.0.113.0/24');
      assert.equal(networkOf('::ffff:203.0.113.7'), '203.0.113.0/24');
      assert.equal(networkOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
      assert.equal(networkOf('2001:0db8:0001:0002::9'), '2001:db8:1:2::/64');
      assert.equal(networkOf('2001:db8::1'), '2001:db8:0:0::/64');
      assert.equal(hashSignUpOrigin('2001:db8:1:2::1').networkHash, hashSignUpOrigin('2001:db8:1:2::ffff').networkHash);
      assert.notEqual(hashSignUpOrigin('2001:db8:1:2::1').addressHash, hashSignUpOrigin('2001:db8:1:2::2').addressHash);
    });
  });
}
