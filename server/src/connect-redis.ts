import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { StartupError } from './startup-error.ts';

/** At most one log line per this long while Redis stays unreachable; the rest are counted. */
const errorLogIntervalMs = 30_000;

/**
 * Connects to `REDIS_URL` and checks it answers PING before the gateway takes traffic: an unreachable Redis stops
 * start-up with one clear message instead of a gateway that looks ready and fails every request. Later connection
 * errors go to the log, rate-limited, instead of ioredis's "Unhandled error event" stack traces on stderr.
 */
export async function connectRedis(input: { url: string; logger: Logger; nowMs: () => number }): Promise<Redis> {
  // Auto-pipelining: the commands of one event-loop turn (many calls' limits and holds at load) leave in one socket
  // write instead of one each; a write per command was the largest item of the PostgreSQL + Redis gateway's profile.
  const redis = new Redis(input.url, {
    maxRetriesPerRequest: 2,
    lazyConnect: true,
    connectTimeout: 10_000,
    enableAutoPipelining: true,
  });
  let lastError: Error | undefined;
  let lastLoggedAtMs = Number.NEGATIVE_INFINITY;
  let suppressedCount = 0;
  let isConnected = false;
  let isFailing = false;
  redis.on('ready', () => {
    if (isFailing) input.logger.info({ redis: describeRedisAddress(input.url) }, 'Redis connection restored');
    isFailing = false;
  });
  redis.on('error', (error: Error) => {
    lastError = error;
    // Until the first PING answers, a failure ends start-up with its own message below.
    if (!isConnected) return;
    isFailing = true;
    if (input.nowMs() - lastLoggedAtMs < errorLogIntervalMs) {
      suppressedCount += 1;
      return;
    }
    lastLoggedAtMs = input.nowMs();
    input.logger.error(
      { redis: describeRedisAddress(input.url), reason: error.message, suppressedSinceLast: suppressedCount },
      'Redis connection error; retrying',
    );
    suppressedCount = 0;
  });
  try {
    await redis.connect();
    await redis.ping();
    isConnected = true;
  } catch (error) {
    redis.disconnect();
    const reason = lastError?.message ?? (error instanceof Error ? error.message : String(error));
    throw new StartupError(`cannot reach Redis at ${describeRedisAddress(input.url)} (REDIS_URL): ${reason}`, {
      cause: error,
    });
  }
  return redis;
}

/** The host and port of a Redis URL, never its password. */
export function describeRedisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'the configured address';
  }
}
