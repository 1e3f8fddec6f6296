import { existsSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { startTestServices } from '../scripts/test-services.ts';

/** PostgreSQL and Redis for the scale-out runs, or why they are not there. */
export type BenchServices =
  | {
      isAvailable: true;
      redisUrl: string;
      /** A fresh database on the server for one gateway (all of them are dropped by `stop`). */
      newDatabase: () => Promise<string>;
      stop: () => Promise<void>;
    }
  | { isAvailable: false; reason: string };

/**
 * Uses BENCH_POSTGRES_URL / BENCH_REDIS_URL when both are given (fresh databases are created on that server and
 * dropped afterwards); otherwise starts throwaway local servers, which needs PostgreSQL and redis-server installed.
 */
export async function startPostgresAndRedis(environment: {
  postgresUrl: string | undefined;
  redisUrl: string | undefined;
}): Promise<BenchServices> {
  if (environment.postgresUrl && environment.redisUrl) {
    return { ...createDatabases(environment.postgresUrl, () => undefined), redisUrl: environment.redisUrl };
  }
  const missing = missingServers();
  if (missing) return { isAvailable: false, reason: `not run: ${missing} missing` };
  const services = await startTestServices();
  return { ...createDatabases(services.postgresUrl, services.stop), redisUrl: services.redisUrl };
}

function createDatabases(serverUrl: string, stopServers: () => void) {
  const names: string[] = [];
  const runAdmin = async (statement: string) => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  return {
    isAvailable: true as const,
    newDatabase: async () => {
      const name = `gateway_bench_${randomBytes(4).toString('hex')}`;
      await runAdmin(`create database ${name}`);
      names.push(name);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    stop: async () => {
      for (const name of names) await runAdmin(`drop database if exists ${name} with (force)`);
      stopServers();
    },
  };
}

function missingServers(): string | undefined {
  const hasPostgres =
    existsSync('/usr/lib/postgresql') &&
    readdirSync('/usr/lib/postgresql').some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`));
  if (!hasPostgres) return 'PostgreSQL';
  const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
  return hasRedis ? undefined : 'redis-server';
}
