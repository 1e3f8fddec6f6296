import type { Redis } from 'ioredis';
import { defineRedisScript } from './define-redis-script.ts';

/** Runs one batched script with its keys and arguments; resolves with what the script returned. */
export type BatchedScript = (keys: readonly string[], args: readonly string[]) => Promise<unknown>;

type Part = { name: string; lua: string };
type Queued = {
  index: number;
  keys: readonly string[];
  args: readonly string[];
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
};
type Batch = {
  partCount: number;
  run: (index: number, keys: readonly string[], args: readonly string[]) => Promise<unknown>;
};

/** Every script defined through `defineBatchedRedisScript`, in order: a part's number is its place here, plus one. */
const parts: Part[] = [];
const batches = new WeakMap<Redis, Batch>();

/**
 * A Lua script whose calls are batched: the calls made on one client in one event-loop turn (before the turn's
 * `process.nextTick` callbacks run) go to Redis as ONE script invocation, by SHA (`defineRedisScript`), which runs
 * each call's script in the order the calls were made, as a function of its own `KEYS` and `ARGV`, and answers each
 * call with its own result. Redis runs the batch atomically, so the calls see no other client's command between them:
 * one of the interleavings separate scripts allowed. A script that raises an error fails only its own call (the
 * others' results stand, as with separate scripts); a batch that does not reach Redis fails every call in it.
 *
 * For scripts whose order against the client's other commands does not matter (the limiters), like
 * `defineRedisScript`: a batch goes out at the end of the turn, after commands sent directly in that turn, and is sent
 * again after a `NOSCRIPT`. Defining one must happen at module load, before the first batch is sent on a client; a
 * batch includes every script defined when it is first used on that client
 * (docs/decisions/1880-limiter-scripts-of-one-turn-in-one-invocation.md).
 */
export function defineBatchedRedisScript(name: string, lua: string): (redis: Redis) => BatchedScript {
  parts.push({ name, lua });
  const index = parts.length;
  return (redis) => {
    batchOf(redis, index);
    return (keys, args) => batchOf(redis, index).run(index, keys, args);
  };
}

function batchOf(redis: Redis, index: number): Batch {
  const known = batches.get(redis);
  if (known && known.partCount >= index) return known;
  const batch = createBatch(redis);
  batches.set(redis, batch);
  return batch;
}

/**
 * ARGV: how many calls, then per call its script's number, its key count and its argument count, then every call's
 * arguments in turn; KEYS: every call's keys in turn. Answers one result per call, or an error reply in its place.
 */
function composeBatchScript(batched: readonly Part[]): string {
  const functions = batched.map(
    (part, index) => `-- ${part.name}\nscripts[${index + 1}] = function(KEYS, ARGV)\n${part.lua}\nend\n`,
  );
  return `local scripts = {}
${functions.join('')}
local count = tonumber(ARGV[1])
local keyAt, argAt = 1, 2 + count * 3
local results = {}
for call = 1, count do
  local script = scripts[tonumber(ARGV[call * 3 - 1])]
  local keyCount, argCount = tonumber(ARGV[call * 3]), tonumber(ARGV[call * 3 + 1])
  local keys, args = {}, {}
  for i = 1, keyCount do keys[i] = KEYS[keyAt + i - 1] end
  for i = 1, argCount do args[i] = ARGV[argAt + i - 1] end
  keyAt, argAt = keyAt + keyCount, argAt + argCount
  local ok, result = pcall(script, keys, args)
  if not ok then
    -- Redis's own errors arrive as a table with \`err\`; a Lua runtime error as a string.
    if type(result) == 'table' and result.err then
      result = {err = result.err}
    else
      result = {err = tostring(result)}
    end
  elseif result == nil then
    result = false
  end
  results[call] = result
end
return results
`;
}

function createBatch(redis: Redis): Batch {
  const partCount = parts.length;
  const send = defineRedisScript(`gatewayScriptBatch${partCount}`, composeBatchScript(parts))(redis);
  let queue: Queued[] = [];
  const flush = () => {
    const calls = queue;
    queue = [];
    const header = [String(calls.length)];
    for (const call of calls) header.push(String(call.index), String(call.keys.length), String(call.args.length));
    const keys = calls.flatMap((call) => call.keys);
    const args = [...header, ...calls.flatMap((call) => call.args)];
    send(keys, args).then(
      (results) => {
        const answers = results as unknown[];
        calls.forEach((call, index) => {
          const answer = answers[index];
          // An error reply nested in the array arrives as an Error among the results.
          if (answer instanceof Error) call.reject(answer);
          else call.resolve(answer);
        });
      },
      (error: unknown) => {
        for (const call of calls) call.reject(error);
      },
    );
  };
  return {
    partCount,
    run: (index, keys, args) =>
      new Promise((resolve, reject) => {
        if (queue.length === 0) process.nextTick(flush);
        queue.push({ index, keys, args, resolve, reject });
      }),
  };
}
