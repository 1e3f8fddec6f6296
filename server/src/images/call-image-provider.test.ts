import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Agent } from 'undici';
import type { Route } from '../catalog/route-table.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { UpstreamTimeoutError } from '../errors/upstream-timeout-error.ts';
import type { UpstreamFailure } from '../providers/provider-adapter.ts';
import type { ProviderId } from '../providers/provider-id.ts';
import { createUpstreamAgent } from '../providers/shared/post-json.ts';
import { createRouting } from '../routing/create-routing.ts';
import { defaultRoutingSettings } from '../routing/routing-settings.ts';
import { startSimulator, type RunningSimulator } from '../simulators/start-simulator.ts';
import { callImageProvider } from './call-image-provider.ts';
import { checkImageRequest } from './check-image-request.ts';
import { findImageProfile } from './image-profiles.ts';
import type { ImageRequest } from './image-request.ts';

let simulator: RunningSimulator;
let dispatcher: Agent;
before(async () => {
  simulator = await startSimulator();
  dispatcher = createUpstreamAgent({ connectTimeoutMs: 5_000 });
});
after(async () => {
  await dispatcher.close();
  await simulator.close();
});

function route(id: string, input: { provider: ProviderId; path: string; credential?: string; model: string }): Route {
  return {
    id,
    modelId: input.model,
    provider: input.provider,
    baseUrl: `${simulator.url}${input.path}`,
    credential: input.credential ?? 'test-key',
    upstreamModel: input.model,
    priority: 1,
    weight: 1,
    origin: 'database',
  };
}

function job(request: Omit<ImageRequest, 'prompt'> & { prompt?: string }) {
  const profile = findImageProfile(request.model);
  assert.ok(profile);
  return checkImageRequest({ prompt: 'a quiet harbour', ...request }, profile);
}

describe('callImageProvider', () => {
  it('fails over past an outage, a refused credential and a route that cannot serve the model', async () => {
    const failures: UpstreamFailure[] = [];
    const call = await callImageProvider(
      { dispatcher, onAttemptFailed: (_route, failure) => failures.push(failure) },
      {
        routes: [
          route('outage', { provider: 'bfl', path: '/_fault/status%3D503/bfl', model: 'flux-pro-1.1' }),
          route('bad-key', { provider: 'bfl', path: '/bfl', credential: 'invalid-key', model: 'flux-pro-1.1' }),
          route('wrong-vendor', { provider: 'anthropic', path: '/anthropic', model: 'flux-pro-1.1' }),
          route('good', { provider: 'bfl', path: '/bfl', model: 'flux-pro-1.1' }),
        ],
        job: job({ model: 'flux-pro-1.1', size: '256x256' }),
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      },
    );
    assert.equal(call.route.id, 'good');
    assert.equal(call.attemptCount, 4);
    assert.deepEqual(
      failures.map((failure) => [failure.kind, failure.status]),
      [
        ['retryable', 503],
        ['credential', 403],
        ['credential', 404],
      ],
    );
    assert.equal(call.generated.images.length, 1);
  });

  it('returns a content-policy refusal at once as a 400, without trying the next route', async () => {
    const failures: UpstreamFailure[] = [];
    const error = await callImageProvider(
      { dispatcher, onAttemptFailed: (_route, failure) => failures.push(failure) },
      {
        routes: [
          route('first', { provider: 'openai', path: '/openai/v1', model: 'gpt-image-1' }),
          route('second', { provider: 'openai', path: '/openai/v1', model: 'gpt-image-1' }),
        ],
        job: job({ model: 'gpt-image-1', prompt: 'forbidden [sim:refusal]' }),
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      },
    ).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof InvalidRequestError);
    assert.equal(error.code, 'moderation_blocked');
    assert.deepEqual(failures, []);
  });

  it('gives up on a route past the deadline: 504 when it was the last one', async () => {
    const error = await callImageProvider(
      { dispatcher },
      {
        routes: [route('slow', { provider: 'gemini', path: '/gemini', model: 'imagen-4.0-generate-001' })],
        job: job({ model: 'imagen-4.0-generate-001', prompt: 'slow [sim:delay-first-byte=30000]' }),
        signal: new AbortController().signal,
        timeoutMs: 300,
      },
    ).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof UpstreamTimeoutError, String(error));
  });

  it('reports an upstream error when every route failed', async () => {
    const error = await callImageProvider(
      { dispatcher },
      {
        routes: [
          route('a', { provider: 'gemini', path: '/_fault/status%3D500/gemini', model: 'gemini-2.5-flash-image' }),
          route('b', { provider: 'gemini', path: '/_fault/status%3D429/gemini', model: 'gemini-2.5-flash-image' }),
        ],
        job: job({ model: 'gemini-2.5-flash-image' }),
        signal: new AbortController().signal,
        timeoutMs: 10_000,
      },
    ).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.code, 'upstream_rate_limited');
    assert.match(error.message, /All 2 upstream routes/);
  });

  it('feeds route health: a route whose breaker opened is skipped by the next call', async () => {
    const routing = createRouting({
      clock: { nowMs: () => 1_000_000 },
      random: () => 0.5,
      settings: { ...defaultRoutingSettings, breaker: { failureThreshold: 1, coolDownMs: 60_000 } },
    });
    const broken = route('broken', {
      provider: 'gemini',
      path: '/_fault/status%3D500/gemini',
      model: 'imagen-4.0-generate-001',
    });
    const good = route('good', { provider: 'gemini', path: '/gemini', model: 'imagen-4.0-generate-001' });
    const call = (routes: Route[]) =>
      callImageProvider(
        { dispatcher, routing },
        {
          routes,
          job: job({ model: 'imagen-4.0-generate-001' }),
          signal: new AbortController().signal,
          timeoutMs: 10_000,
        },
      );
    assert.equal((await call([broken, good])).attemptCount, 2);
    const next = await call([broken, good]);
    assert.deepEqual([next.route.id, next.attemptCount], ['good', 1], 'the open breaker kept the broken route out');
    const error = await call([broken]).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.code, 'no_route_available');
  });
});
