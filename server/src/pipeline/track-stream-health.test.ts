import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatChunk } from '../openai-api/chat-completion.ts';
import { UpstreamFailureError } from '../providers/provider-adapter.ts';
import { createRouting } from '../routing/create-routing.ts';
import { defaultRoutingSettings } from '../config/routing-settings.ts';
import { trackStreamHealth } from './track-stream-health.ts';

const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [] } as ChatChunk;
const route = { id: 'rte_stream', provider: 'openai', maxConcurrency: 1 };

function setup() {
  let nowMs = 1_000;
  const routing = createRouting({
    clock: { nowMs: () => nowMs },
    random: () => 0.5,
    settings: { ...defaultRoutingSettings, breaker: { failureThreshold: 1, coolDownMs: 60_000 } },
  });
  const attempt = routing.tryStart(route);
  assert.ok(attempt);
  attempt.recordFirstByte();
  return { routing, attempt, advance: (ms: number) => (nowMs += ms) };
}

async function* chunksThen(error?: Error): AsyncGenerator<ChatChunk> {
  yield chunk;
  yield chunk;
  if (error) throw error;
}

describe('stream health tracking', () => {
  it('keeps the route busy until the stream ends, then records a success', async () => {
    const { routing, attempt, advance } = setup();
    const tracked = trackStreamHealth({ chunks: chunksThen(), attempt, signal: new AbortController().signal });
    assert.equal(routing.viewOf(route).inFlight, 1);
    assert.equal(routing.tryStart(route), undefined, 'the concurrency cap counts the running stream');
    advance(500);
    while (!(await tracked.next()).done);
    const view = routing.viewOf(route);
    assert.equal(view.inFlight, 0);
    assert.equal(view.latencyMs, 500);
    assert.equal(view.state, 'healthy');
  });

  it('counts a mid-stream break against the route', async () => {
    const { routing, attempt } = setup();
    const failure = new UpstreamFailureError({ kind: 'retryable', status: 500, message: 'broke' });
    const tracked = trackStreamHealth({ chunks: chunksThen(failure), attempt, signal: new AbortController().signal });
    await assert.rejects(async () => {
      while (!(await tracked.next()).done);
    });
    const view = routing.viewOf(route);
    assert.equal(view.inFlight, 0);
    assert.equal(view.failures, 1);
    assert.equal(view.state, 'open', 'the breaker of this one-failure setting opened');
  });

  it('does not blame the route when the client leaves or the consumer stops', async () => {
    const left = setup();
    const controller = new AbortController();
    trackStreamHealth({ chunks: chunksThen(), attempt: left.attempt, signal: controller.signal });
    controller.abort();
    assert.equal(left.routing.viewOf(route).inFlight, 0);
    assert.equal(left.routing.viewOf(route).failures, 0);

    const stopped = setup();
    const tracked = trackStreamHealth({
      chunks: chunksThen(),
      attempt: stopped.attempt,
      signal: new AbortController().signal,
    });
    await tracked.next();
    await tracked.return?.();
    assert.equal(stopped.routing.viewOf(route).inFlight, 0);
    assert.equal(stopped.routing.viewOf(route).state, 'healthy');
  });
});
