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

test('a database that is restarting gets a retryable 503; an error in a query stays a 500', () => {
  const starting = Object.assign(new Error('the database system is not yet accepting connections'), { code: '57P03' });
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  for (const error of [starting, refused, new Error('Connection terminated unexpectedly')]) {
    const answer = toGatewayError(error);
    assert.ok(answer instanceof ServiceUnavailableError, error.message);
    assert.equal(answer.headers['retry-after'], '3');
  }
  const constraint = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
  assert.ok(toGatewayError(constraint) instanceof InternalError);
});
