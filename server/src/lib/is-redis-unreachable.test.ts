import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServiceUnavailableError } from '../errors/service-unavailable-error.ts';
import { InternalError } from '../errors/internal-error.ts';
import { toGatewayError } from '../http/write-error.ts';
import { isRedisUnreachable } from './is-redis-unreachable.ts';

/** The errors ioredis raises when a command cannot reach the server (names and messages as ioredis 5 sends them). */
function maxRetriesError(): Error {
  const error = new Error('Reached the max retries per request limit (which is 2).');
  error.name = 'MaxRetriesPerRequestError';
  return error;
}

test('an unreachable Redis is told apart from a reply Redis sent', () => {
  assert.equal(isRedisUnreachable(maxRetriesError()), true);
  assert.equal(isRedisUnreachable(new Error('Connection is closed.')), true);
  assert.equal(isRedisUnreachable(new Error('ERR Error running script (call to f_0): user_script:3: bad')), false);
  assert.equal(isRedisUnreachable('Connection is closed.'), false);
});

test('a call that meets an unreachable Redis gets a retryable 503, never a 500', () => {
  const error = toGatewayError(maxRetriesError());
  assert.ok(error instanceof ServiceUnavailableError);
  assert.equal(error.status, 503);
  assert.equal(error.code, 'service_unavailable');
  assert.equal(error.headers['retry-after'], '3');
  assert.ok(toGatewayError(new Error('ERR unknown command')) instanceof InternalError);
});
