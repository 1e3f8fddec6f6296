import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHealthTracker } from './health-tracker.ts';
import { defaultRoutingSettings } from '../config/routing-settings.ts';

const settings = { ...defaultRoutingSettings, breaker: { failureThreshold: 2, coolDownMs: 1_000 } };
const retryable = { kind: 'failure', reason: 'retryable' } as const;

describe('route health tracker', () => {
  it('counts calls in flight and refuses new ones at the concurrency cap', () => {
    const tracker = createHealthTracker(settings);
    const route = { id: 'r', maxConcurrency: 2 };
    const first = tracker.tryStart(route, 0);
    const second = tracker.tryStart(route, 0);
    assert.ok(first && second);
    assert.equal(tracker.tryStart(route, 0), undefined);
    assert.equal(tracker.view(route, 0).isAvailable, false);
    first.finish({ kind: 'success' }, 10);
    first.finish({ kind: 'success' }, 10);
    assert.equal(tracker.view(route, 10).inFlight, 1, 'finishing twice counts once');
    assert.ok(tracker.tryStart(route, 10));
  });

  it('opens the breaker after repeated failures and closes it when the probe succeeds', () => {
    const tracker = createHealthTracker(settings);
    const route = { id: 'r' };
    tracker.tryStart(route, 0)?.finish(retryable, 0);
    tracker.tryStart(route, 0)?.finish(retryable, 0);
    assert.equal(tracker.view(route, 1).state, 'open');
    assert.equal(tracker.tryStart(route, 500), undefined);
    const probe = tracker.tryStart(route, 1_000);
    assert.ok(probe);
    assert.equal(tracker.view(route, 1_000).state, 'half_open');
    assert.equal(tracker.tryStart(route, 1_000), undefined, 'one probe at a time');
    probe.recordFirstByte(1_050);
    probe.finish({ kind: 'success' }, 1_100);
    assert.equal(tracker.view(route, 1_100).state, 'healthy');
  });

  it('cools a route for the Retry-After the upstream sent, capped', () => {
    const tracker = createHealthTracker({ ...settings, maxCoolingMs: 60_000 });
    tracker.tryStart({ id: 'a' }, 0)?.finish({ ...retryable, retryAfterMs: 2_000 }, 0);
    assert.equal(tracker.view({ id: 'a' }, 1_999).state, 'cooling');
    assert.equal(tracker.view({ id: 'a' }, 1_999).isAvailable, false);
    assert.equal(tracker.view({ id: 'a' }, 2_000).state, 'healthy');
    tracker.tryStart({ id: 'b' }, 0)?.finish({ ...retryable, retryAfterMs: 86_400_000 }, 0);
    assert.equal(tracker.view({ id: 'b' }, 0).coolingUntilMs, 60_000);
  });

  it('keeps moving averages of error rate, time to first token and latency', () => {
    const tracker = createHealthTracker(settings);
    const route = { id: 'r' };
    const attempt = tracker.tryStart(route, 1_000);
    attempt?.recordFirstByte(1_200);
    attempt?.finish({ kind: 'success' }, 1_500);
    tracker.tryStart(route, 2_000)?.finish(retryable, 2_100);
    const view = tracker.view(route, 3_000);
    assert.equal(view.timeToFirstTokenMs, 200);
    assert.equal(view.latencyMs, 500);
    assert.ok(Math.abs(view.errorRate - 0.2) < 1e-9);
    assert.equal(view.attempts, 2);
    assert.equal(view.failures, 1);
  });

  it('does not blame the route for a bad request or a client who left', () => {
    const tracker = createHealthTracker(settings);
    const route = { id: 'r' };
    for (let index = 0; index < 5; index += 1) {
      tracker.tryStart(route, 0)?.finish({ kind: 'request_error' }, 1);
      tracker.tryStart(route, 0)?.finish({ kind: 'abandoned' }, 1);
    }
    const view = tracker.view(route, 2);
    assert.equal(view.state, 'healthy');
    assert.equal(view.errorRate, 0);
  });
});
