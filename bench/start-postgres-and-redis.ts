import { existsSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { startTestServices } from '../scripts/test-services.ts';

/** PostgreSQL and Redis for the scale-out run, or why they are not there. */
export type BenchServices =
  | { isAvailable: true; databaseUrl: string; redisUrl: string; stop: () => Promise<void> }
  | { isAvailable: false; reason: string };

/**
 * Uses BENCH_POSTGRES_URL / BENCH_REDIS_URL when both are given (a fresh database is created on that server and
 * dropped afterwards); otherwise starts throwaway local servers, which needs PostgreSQL and redis-server installed.
 */
export async function startPostgresAndRedis(environment: {
  postgresUrl: string | undefined;
  redisUrl: string | undefined;
}): Promise<BenchServices> {
  if (environment.postgresUrl && environment.redisUrl) {
    return { ...(await createDatabase(environment.postgresUrl, () => undefined)), redisUrl: environment.redisUrl };
  }
  const missing = missingServers();
  if (missing) return { isAvailable: false, reason: `not run: ${missing} missing` };
  const services = await startTestServices();
  return { ...(await createDatabase(services.postgresUrl, services.stop)), redisUrl: services.redisUrl };
}

async function createDatabase(serverUrl: string, stopServers: () => void) {
  const name = `gateway_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    isAvailable: true as const,
    databaseUrl: url.toString(),
    stop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
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
