import type { Redis } from 'ioredis';

type ScriptCommand = (this: Redis, numberOfKeys: number, ...keysAndArgs: string[]) => Promise<unknown>;

/**
 * A Lua script sent by its SHA instead of its text: ioredis's `defineCommand` sends the text (`EVAL`) the first time
 * the script goes out on a connection, `EVALSHA` after that, and on `NOSCRIPT` (Redis's script cache flushed while
 * the connection stayed open) sends the command again with its text. A reconnect (Redis restarted empty) is a new
 * connection, so the first use after it carries the text and no `NOSCRIPT` happens.
 *
 * The retry runs after commands sent later may have run, so only scripts whose order against other commands does not
 * matter may use this (the limiters' batch, `redis-script-batch.ts`); the credit scripts handle their `NOSCRIPT`
 * themselves (`billing/credit-script-sender.ts`, docs/decisions/1881-credit-scripts-per-call-by-sha.md).
 *
 * The command is defined on a client when first asked for, which must happen before commands are sent on that client
 * (an auto-pipelined batch copies the client's scripts when it is opened): the limiters ask at construction.
 */
export function defineRedisScript(name: string, lua: string) {
  const defined = new WeakSet<Redis>();
  return (redis: Redis) => {
    if (!defined.has(redis)) {
      redis.defineCommand(name, { lua });
      defined.add(redis);
    }
    // defineCommand adds the method at run time, so its type is not on Redis's.
    const command = (redis as unknown as Record<string, ScriptCommand>)[name]!;
    return (keys: readonly string[], args: readonly string[]): Promise<unknown> =>
      command.call(redis, keys.length, ...keys, ...args);
  };
}
