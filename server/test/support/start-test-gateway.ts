import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import pino from 'pino';
import { createUser } from '../../src/accounts/create-user.ts';
import { issueApiKey } from '../../src/accounts/issue-api-key.ts';
import { parseConfig, type Config } from '../../src/config/config.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { cryptoIds } from '../../src/lib/ids.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { checkExchanges, type ExchangeReport } from './conformance/check-exchanges.ts';
import { startRecordingProxy, type RecordingProxy } from './conformance/recording-proxy.ts';
import { loadOpenApiSchemaValidator, type OpenApiSchemaValidator } from './openapi-schema-validator.ts';
import { createTestDatabase, type DatabaseKind } from './test-databases.ts';

export type TestGateway = {
  /**
   * The gateway behind a recording proxy: every `/v1` answer the tests receive (bodies, stream chunks, errors) is
   * checked against the OpenAI spec, or Anthropic's envelope for `/v1/messages` (`checkAnswers`, and `close`).
   */
  url: string;
  /** The running gateway; `gateway.url` reaches it without the proxy. */
  gateway: RunningGateway;
  config: Config;
  /** Registers a user (welcome balance as configured, or `balanceUsd`) and issues a key. */
  createUserWithKey: (options?: {
    role?: 'user' | 'admin';
    email?: string;
    /** Overrides the welcome balance. */
    balanceMicros?: number;
    key?: Omit<Parameters<typeof issueApiKey>[1], 'userId' | 'name'>;
  }) => Promise<{ userId: string; key: string }>;
  /**
   * Checks the `/v1` answers recorded since the last check (`close` checks the rest). Every problem found also fails
   * the test file, once all its tests and hooks have run.
   */
  checkAnswers: () => ExchangeReport;
  close: () => Promise<void>;
};

/** The bearer token test gateways require for `/metrics` (unless a test's environment says otherwise). */
export const testMetricsToken = 'test-metrics-token-0123456789';

/** `/metrics` of a test gateway, as a scraper with the token reads it. */
export async function fetchMetrics(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${testMetricsToken}` } });
  assert.equal(response.status, 200);
  return response.text();
}

/** The OpenAI spec is large: parsed once per test process, when the first answer is checked. */
let validator: OpenApiSchemaValidator | undefined;
/** What every test gateway of this test file found wrong in its `/v1` answers. */
const answerProblems: string[] = [];
/** The answer checks of the gateways not closed yet. */
const openGatewayChecks = new Set<() => ExchangeReport>();

// A hook of the file's root test: it runs after every suite has closed its gateways, so a failure here never leaves
// a fixture half closed (a server still listening would keep the test process alive).
after(() => {
  for (const checkAnswers of openGatewayChecks) checkAnswers();
  assert.deepEqual(
    answerProblems,
    [],
    "the gateway's /v1 answers follow the OpenAI spec (Anthropic's for /v1/messages)",
  );
});

/** A real gateway on a free loopback port, sandbox mode on, over a fresh database of the given kind. */
export async function startTestGateway(
  options: {
    databaseKind?: DatabaseKind;
    environment?: Record<string, string>;
    /** Receives every log line at debug level (else logs are off). */
    logStream?: { write: (line: string) => void };
  } = {},
): Promise<TestGateway> {
  const database = await createTestDatabase(options.databaseKind ?? 'sqlite');
  const dataDir = database.environment.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'gateway-test-data-'));
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SANDBOX: 'on',
    SHUTDOWN_GRACE_MS: '2000',
    // The tests written before the default became cost plus markup check prices as list less the discount.
    PRICING_RULE: 'list_minus_discount',
    // The test switches of docs/accounts.md: tests sign up many accounts from one address without solving the
    // proof of work, and get the welcome balance at once; the account tests turn each back on.
    SIGNUP_ABUSE_CHECKS: 'off',
    WELCOME_BALANCE_AT: 'sign-up',
    METRICS_TOKEN: testMetricsToken,
    // Tests of the operator API sign in with a password only, unless they test the second factor itself.
    REQUIRE_OPERATOR_TOTP: 'false',
    // Tests stay on loopback: a model sync reads the bundled price data unless a test serves its own file.
    PRICE_DATA_URL: 'off',
    ...database.environment,
    DATA_DIR: dataDir,
    ...options.environment,
  });
  const logger = options.logStream ? pino({ level: 'debug' }, options.logStream) : pino({ level: 'silent' });
  const gateway = await startGateway(config, logger);
  const proxy = await startRecordingProxy(gateway.url);
  const checkAnswers = () => checkRecordedAnswers(proxy);
  openGatewayChecks.add(checkAnswers);
  let userCount = 0;
  const testGateway: TestGateway = {
    url: proxy.url,
    gateway,
    config,
    createUserWithKey: async (userOptions = {}) => {
      userCount += 1;
      const deps = { db: gateway.database.db, clock: systemClock, ids: cryptoIds };
      const user = await createUser(deps, {
        email: userOptions.email ?? `user${userCount}-${Date.now()}@example.com`,
        password: 'correct horse battery staple',
        role: userOptions.role ?? 'user',
        welcomeBalanceMicros: userOptions.balanceMicros ?? config.welcomeBalanceMicros,
      });
      const issued = await issueApiKey(deps, { ...userOptions.key, userId: user.id, name: 'test' });
      return { userId: user.id, key: issued.key };
    },
    checkAnswers,
    close: async () => {
      await proxy.close();
      // The gateway a test restarted in its place, if it did.
      await testGateway.gateway.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      checkAnswers();
      openGatewayChecks.delete(checkAnswers);
    },
  };
  return testGateway;
}

/** Checks the `/v1` answers the proxy recorded since the last call, and keeps their problems for the file's verdict. */
function checkRecordedAnswers(proxy: RecordingProxy): ExchangeReport {
  const answers = proxy.takeExchanges().filter((exchange) => exchange.path.startsWith('/v1/'));
  validator ??= answers.length === 0 ? undefined : loadOpenApiSchemaValidator();
  const report = validator
    ? checkExchanges(validator, answers)
    : { checked: {}, anthropicMessages: 0, extensions: 0, statuses: [], problems: [] };
  answerProblems.push(...report.problems);
  return report;
}
