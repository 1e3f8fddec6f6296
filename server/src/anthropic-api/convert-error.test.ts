import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InsufficientCreditsError } from '../errors/insufficient-credits-error.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import { UpstreamTimeoutError } from '../errors/upstream-timeout-error.ts';
import { convertError } from './convert-error.ts';

describe('convertError', () => {
  test('keeps the status and names the Anthropic error type', () => {
    assert.deepEqual(convertError(new InsufficientCreditsError('Top up.'), 'req_1'), {
      type: 'error',
      error: { type: 'billing_error', message: 'Top up.' },
      request_id: 'req_1',
    });
    const limited = new RateLimitError('Slow down.', { retryAfterSeconds: 3, limitKind: 'requests' });
    assert.equal(convertError(limited, 'r').error.type, 'rate_limit_error');
    assert.equal(convertError(new UpstreamTimeoutError('Late.'), 'r').error.type, 'timeout_error');
  });
});
