import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, parseConfig } from './config.ts';

test('with nothing configured it runs on SQLite in ./data, port 8080, sandbox on', () => {
  const config = parseConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.database.kind, 'sqlite');
  assert.equal(config.dataDir, path.resolve('./data'));
  assert.equal(config.isSandbox, true);
  assert.equal(config.publicBaseUrl, 'http://127.0.0.1:8080');
  assert.ok(Object.isFrozen(config));
});

test('a vendor credential turns auto sandbox off; SANDBOX=on keeps it on', () => {
  assert.equal(parseConfig({ OPENAI_API_KEY: 'sk-live' }).isSandbox, false);
  assert.equal(parseConfig({ OPENAI_API_KEY: 'sk-live', SANDBOX: 'on' }).isSandbox, true);
  assert.equal(parseConfig({ SANDBOX: 'off' }).isSandbox, false);
});

test('DATABASE_URL selects PostgreSQL', () => {
  const config = parseConfig({ DATABASE_URL: 'postgres://u:p@db:5432/gateway' });
  assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://u:p@db:5432/gateway' });
});

test('every invalid key is reported together', () => {
  assert.throws(
    () => parseConfig({ PORT: 'eighty', SANDBOX: 'maybe', MASTER_KEY: 'short', DATABASE_URL: 'mysql://x' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      const keys = error.problems.map((problem) => problem.split(':')[0]);
      assert.deepEqual(keys.sort(), ['DATABASE_URL', 'MASTER_KEY', 'PORT', 'SANDBOX']);
      return true;
    },
  );
});

test('base URLs lose their trailing slash and the direct one defaults to the public one', () => {
  const config = parseConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' });
  assert.equal(config.publicBaseUrl, 'https://api.example.com');
  assert.equal(config.directBaseUrl, 'https://api.example.com');
});

test('USD and percent settings are read exactly, without float rounding', () => {
  const config = parseConfig({ WELCOME_BALANCE_USD: '0.000001', DEFAULT_DISCOUNT_PERCENT: '12.35' });
  assert.equal(config.welcomeBalanceMicros, 1);
  assert.equal(config.defaultDiscountBasisPoints, 1235);
  assert.equal(parseConfig({ WELCOME_BALANCE_USD: '4.35' }).welcomeBalanceMicros, 4_350_000);
  assert.equal(parseConfig({}).welcomeBalanceMicros, 1_000_000);
  assert.equal(parseConfig({}).defaultDiscountBasisPoints, 2000);
});

test('a USD amount with more than 6 decimals or a percent with more than 2 is refused, not rounded', () => {
  assert.throws(
    () => parseConfig({ WELCOME_BALANCE_USD: '0.0000001', DEFAULT_DISCOUNT_PERCENT: '12.345', PORT: '1', HOST: 'h' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems.map((problem) => problem.split(':')[0]).sort(), [
        'DEFAULT_DISCOUNT_PERCENT',
        'WELCOME_BALANCE_USD',
      ]);
      return true;
    },
  );
  assert.throws(() => parseConfig({ WELCOME_BALANCE_USD: '-1' }), ConfigError);
  assert.throws(() => parseConfig({ DEFAULT_DISCOUNT_PERCENT: '91' }), ConfigError);
  assert.throws(() => parseConfig({ WELCOME_BALANCE_USD: '1e3' }), ConfigError);
});

test('CORS_ORIGINS is any origin by default, or a list of origins; anything else is refused', () => {
  assert.equal(parseConfig({}).corsOrigins, '*');
  assert.deepEqual(parseConfig({ CORS_ORIGINS: 'https://App.example.com, http://localhost:3000' }).corsOrigins, [
    'https://app.example.com',
    'http://localhost:3000',
  ]);
  for (const value of ['app.example.com', 'https://app.example.com/path', ' , ']) {
    assert.throws(() => parseConfig({ CORS_ORIGINS: value }), /CORS_ORIGINS/, value);
  }
});
