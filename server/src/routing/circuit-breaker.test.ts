import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCircuitBreaker } from './circuit-breaker.ts';

describe('circuit breaker', () => {
  it('opens after the threshold of consecutive failures, and a success in between resets the count', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 3, coolDownMs: 1000 });
    breaker.recordFailure(0);
    breaker.recordFailure(1);
    breaker.recordSuccess();
    breaker.recordFailure(2);
    breaker.recordFailure(3);
    assert.equal(breaker.state(), 'closed');
    breaker.recordFailure(4);
    assert.equal(breaker.state(), 'open');
    assert.equal(breaker.canPass(500), false);
    assert.equal(breaker.tryPass(500), false);
    assert.equal(breaker.reopensAtMs(), 1004);
  });

  it('lets exactly one probe through after the cool-down and closes when it succeeds', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 1000 });
    breaker.recordFailure(0);
    assert.equal(breaker.canPass(1000), true);
    assert.equal(breaker.tryPass(1000), true);
    assert.equal(breaker.state(), 'half_open');
    assert.equal(breaker.tryPass(1001), false, 'a second caller waits for the probe');
    breaker.recordSuccess();
    assert.equal(breaker.state(), 'closed');
    assert.equal(breaker.tryPass(1002), true);
  });

  it('opens again for a new cool-down when the probe fails', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 2, coolDownMs: 1000 });
    breaker.recordFailure(0);
    breaker.recordFailure(0);
    assert.equal(breaker.tryPass(1500), true);
    breaker.recordFailure(1500);
    assert.equal(breaker.state(), 'open');
    assert.equal(breaker.canPass(2000), false);
    assert.equal(breaker.canPass(2500), true);
  });

  it('frees the probe when its call ends without a verdict', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 10 });
    breaker.recordFailure(0);
    assert.equal(breaker.tryPass(10), true);
    breaker.releaseProbe();
    assert.equal(breaker.tryPass(11), true, 'another caller may probe');
  });
});
