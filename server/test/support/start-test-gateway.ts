import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createUser } from '../../src/accounts/create-user.ts';
import { issueApiKey } from '../../src/accounts/issue-api-key.ts';
import { parseConfig, type Config } from '../../src/config/config.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { cryptoIds } from '../../src/lib/ids.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { createTestDatabase, type DatabaseKind } from './test-databases.ts';

export type TestGateway = {
  url: string;
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
  close: () => Promise<void>;
};

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
    ...database.environment,
    DATA_DIR: dataDir,
    ...options.environment,
  });
  const logger = options.logStream ? pino({ level: 'debug' }, options.logStream) : pino({ level: 'silent' });
  const gateway = await startGateway(config, logger);
  let userCount = 0;
  return {
    url: gateway.url,
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
    close: async () => {
      await gateway.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
