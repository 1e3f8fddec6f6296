import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanVendorMessage } from './clean-vendor-message.ts';
import { classifyStatus, createUpstreamFailure } from './create-upstream-failure.ts';
import { parseDurationMs, parseRetryAfterMs } from './parse-retry-after.ts';

describe('createUpstreamFailure', () => {
  it('classifies statuses as docs/STYLE.md §8 says', () => {
    const kinds = [400, 401, 402, 403, 404, 408, 409, 413, 422, 429, 500, 503, 529].map((status) => [
      status,
      classifyStatus(status),
    ]);
    assert.deepEqual(Object.fromEntries(kinds), {
      400: 'request',
      401: 'credential',
      402: 'credential',
      403: 'credential',
      404: 'credential',
      408: 'retryable',
      409: 'retryable',
      413: 'request',
      422: 'request',
      429: 'retryable',
      500: 'retryable',
      503: 'retryable',
      529: 'retryable',
    });
  });

  it('shows the cleaned vendor message and param only for request failures', () => {
    const request = createUpstreamFailure({
      status: 400,
      headers: {},
      vendorMessage: 'Bad  key sk-abcdef123456 at http://10.0.0.5:8000/v1',
      param: 'temperature',
    });
    assert.equal(request.message, 'Bad key [redacted key] at [internal address]');
    assert.equal(request.param, 'temperature');
    const limited = createUpstreamFailure({
      status: 429,
      headers: { 'retry-after': '3' },
      vendorMessage: 'Rate limit reached for org-Abcdef1234567890',
      param: 'model',
    });
    assert.deepEqual(limited, {
      kind: 'retryable',
      status: 429,
      message: 'The upstream provider is rate limiting requests.',
      retryAfterMs: 3000,
    });
  });

  it('prefers a delay from the body over headers, and sets none on non-retryable failures', () => {
    const fromBody = createUpstreamFailure({
      status: 429,
      headers: { 'retry-after': '3' },
      vendorMessage: '',
      retryAfterMs: 34_400,
    });
    assert.equal(fromBody.retryAfterMs, 34_400);
    const credential = createUpstreamFailure({ status: 401, headers: { 'retry-after': '3' }, vendorMessage: 'no' });
    assert.equal(credential.retryAfterMs, undefined);
  });
});

describe('retry delays', () => {
  it('reads retry-after-ms first, then retry-after seconds, and ignores dates', () => {
    assert.equal(parseRetryAfterMs({ 'retry-after-ms': '1500.2', 'retry-after': '9' }), 1501);
    assert.equal(parseRetryAfterMs({ 'retry-after': '2.5' }), 2500);
    assert.equal(parseRetryAfterMs({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), undefined);
    assert.equal(parseRetryAfterMs({}), undefined);
  });

  it('reads protobuf durations', () => {
    assert.equal(parseDurationMs('34.4s'), 34_400);
    assert.equal(parseDurationMs('2s'), 2000);
    assert.equal(parseDurationMs('soon'), undefined);
  });
});

describe('cleanVendorMessage', () => {
  it('redacts keys, bearer tokens and internal hosts and caps the length', () => {
    assert.equal(cleanVendorMessage('Authorization: Bearer abc.def'), 'Authorization: Bearer [redacted]');
    assert.equal(cleanVendorMessage('key AIzaSyA-1234567890abcdefghij is bad'), 'key [redacted key] is bad');
    assert.equal(cleanVendorMessage('see http://localhost:11434/api/chat'), 'see [internal address]');
    assert.equal(cleanVendorMessage('docs: https://docs.anthropic.com/x'), 'docs: https://docs.anthropic.com/x');
    assert.equal(cleanVendorMessage('x'.repeat(600)).length, 500);
  });
});
