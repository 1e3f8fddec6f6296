import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis, type Command } from 'ioredis';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { defineBatchedRedisScript } from './redis-script-batch.ts';

const incrementScript = defineBatchedRedisScript('testBatchIncrement', "return redis.call('INCRBY', KEYS[1], ARGV[1])");
const echoScript = defineBatchedRedisScript('testBatchEcho', 'return {#KEYS, #ARGV, ARGV[#ARGV] or false}');
const failScript = defineBatchedRedisScript('testBatchFail', "error('refused by the script')");

/** The names of the commands the client is given (a script's NOSCRIPT retry included), in order. */
function recordCommands(client: Redis): string[] {
  const names: string[] = [];
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command: Command, stream?: Parameters<Redis['sendCommand']>[1]) => {
    names.push(command.name);
    return send(command, stream);
  };
  return names;
}

describe('batched scripts', () => {
  let redis: Redis;
  let observer: Redis;
  let prefix: string;
  before(() => {
    redis = new Redis(testRedisUrl(), { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
    observer = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
    prefix = `test:batch:${Date.now()}:`;
  });
  after(async () => {
    const keys = await observer.keys(`${prefix}*`);
    if (keys.length > 0) await observer.del(...keys);
    await redis.quit();
    await observer.quit();
  });

  test('the calls of one turn go out as one script, each answered with its own result, in order', async () => {
    const increment = incrementScript(redis);
    const echo = echoScript(redis);
    await increment([`${prefix}warm`], ['1']);
    const sent = recordCommands(redis);
    const answers = await Promise.all([
      increment([`${prefix}a`], ['5']),
      echo([`${prefix}x`, `${prefix}y`], ['1', '2', 'last']),
      increment([`${prefix}a`], ['2']),
      increment([`${prefix}b`], ['7']),
      echo([], []),
    ]);
    assert.deepEqual(answers, [5, [2, 3, 'last'], 7, 7, [0, 0, null]]);
    assert.deepEqual(sent, ['evalsha'], 'one invocation, by SHA');
    // Calls of a later turn make a batch of their own.
    assert.equal(await increment([`${prefix}a`], ['1']), 8);
    assert.deepEqual(sent, ['evalsha', 'evalsha']);
  });

  test('a call whose script fails is refused alone; the others in its batch stand', async () => {
    const increment = incrementScript(redis);
    const fail = failScript(redis);
    await observer.hset(`${prefix}hash`, 'field', '1');
    const [before, wrongType, failed, afterwards] = await Promise.allSettled([
      increment([`${prefix}c`], ['1']),
      increment([`${prefix}hash`], ['1']),
      fail([], []),
      increment([`${prefix}c`], ['1']),
    ]);
    assert.deepEqual(before, { status: 'fulfilled', value: 1 });
    assert.equal(wrongType.status, 'rejected');
    assert.match(String(wrongType.reason), /WRONGTYPE/);
    assert.equal(failed.status, 'rejected');
    assert.match(String(failed.reason), /refused by the script/);
    assert.deepEqual(afterwards, { status: 'fulfilled', value: 2 }, 'the script after the failed ones ran');
  });

  test('after SCRIPT FLUSH mid-run, the batch in flight and the next ones still answer', async () => {
    const increment = incrementScript(redis);
    assert.equal(await increment([`${prefix}d`], ['1']), 1);
    await observer.script('FLUSH');
    const sent = recordCommands(redis);
    const answers = await Promise.all([1, 2, 3].map(() => increment([`${prefix}d`], ['1'])));
    assert.deepEqual(answers, [2, 3, 4], 'each call ran once, in order');
    assert.deepEqual(sent, ['evalsha', 'evalsha'], 'refused with NOSCRIPT, then sent again with its text');
    assert.equal(await increment([`${prefix}d`], ['1']), 5);
  });

  test('a batch that does not reach Redis fails every call in it', async () => {
    const closed = new Redis(testRedisUrl(), { enableAutoPipelining: true, maxRetriesPerRequest: 0 });
    const increment = incrementScript(closed);
    closed.disconnect();
    const results = await Promise.allSettled([increment([`${prefix}e`], ['1']), increment([`${prefix}e`], ['1'])]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.equal(await observer.exists(`${prefix}e`), 0);
  });
});
