import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Agent } from 'undici';
import type { Route } from '../catalog/route-table.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { UpstreamTimeoutError } from '../errors/upstream-timeout-error.ts';
import type { UpstreamFailure } from '../providers/provider-adapter.ts';
import type { ProviderId } from '../providers/provider-id.ts';
import { createUpstreamAgent } from '../upstream/create-upstream-agent.ts';
import { createRouting, type Routing } from '../routing/create-routing.ts';
import { defaultRoutingSettings, type RoutingSettings } from '../config/routing-settings.ts';
import { startSimulator, type RunningSimulator } from '../../../simulators/start-simulator.ts';
import { callImageProvider } from './call-image-provider.ts';
import { checkImageRequest } from './check-image-request.ts';
import { findImageProfile } from './image-profiles.ts';
import type { ImageRequest } from './image-request.ts';

let simulator: RunningSimulator;
let dispatcher: Agent;
before(async () => {
  simulator = await startSimulator();
  dispatcher = createUpstreamAgent({
    connectTimeoutMs: 5_000,
    addresses: { allowPrivate: false, trustedOrigins: [simulator.url] },
  });
});
after(async () => {
  await dispatcher.close();
  await simulator.close();
});

function route(
  id: string,
  input: { provider: ProviderId; path: string; credential?: string; model: string; priority?: number },
): Route {
  return {
    id,
    modelId: input.model,
    provider: input.provider,
    baseUrl: `${simulator.url}${input.path}`,
    credential: input.credential ?? 'test-key',
    upstreamModel: input.model,
    priority: input.priority ?? 1,
    weight: 1,
    origin: 'database',
  };
}

/** A node's routing state; equal routes keep the order they are given in (a constant "random" number). */
function createTestRouting(settings: Partial<RoutingSettings> = {}): Routing {
  return createRouting({
    clock: { nowMs: () => Date.now() },
    random: () => 0.5,
    settings: { ...defaultRoutingSettings, ...settings },
  });
}

const caller = { userId: 'usr_caller' };

function job(request: Omit<ImageRequest, 'prompt'> & { prompt?: string }) {
  const profile = findImageProfile(request.model);
  assert.ok(profile);
  return checkImageRequest({ prompt: 'a quiet harbour', ...request }, profile);
}

const input = (
  routes: Route[],
  request: Parameters<typeof job>[0],
  more: { timeoutMs?: number; userId?: string } = {},
) => ({
  routes,
  job: job(request),
  signal: new AbortController().signal,
  timeoutMs: more.timeoutMs ?? 10_000,
  modelId: request.model,
  userId: more.userId ?? caller.userId,
});

describe('callImageProvider', () => {
  it('fails over past an outage, a refused credential and a route that cannot serve the model', async () => {
    const failures: UpstreamFailure[] = [];
    const model = 'flux-pro-1.1';
    const call = await callImageProvider(
      { dispatcher, routing: createTestRouting(), onAttemptFailed: (_route, failure) => failures.push(failure) },
      input(
        [
          route('outage', { provider: 'bfl', path: '/_fault/status%3D503/bfl', model, priority: 1 }),
          route('bad-key', { provider: 'bfl', path: '/bfl', credential: 'invalid-key', model, priority: 2 }),
          route('wrong-vendor', { provider: 'anthropic', path: '/anthropic', model, priority: 3 }),
          route('good', { provider: 'bfl', path: '/bfl', model, priority: 4 }),
        ],
        { model, size: '256x256' },
      ),
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

  it('orders the routes by the routing policy: priority first, whatever order the table lists them in', async () => {
    const model = 'gemini-2.5-flash-image';
    const tried: string[] = [];
    const call = await callImageProvider(
      { dispatcher, routing: createTestRouting() },
      {
        ...input(
          [
            route('backup', { provider: 'gemini', path: '/gemini', model, priority: 20 }),
            route('primary', { provider: 'gemini', path: '/_fault/status%3D500/gemini', model, priority: 10 }),
          ],
          { model },
        ),
        onRouteTried: (triedRoute) => tried.push(triedRoute.id),
      },
    );
    assert.deepEqual(tried, ['primary', 'backup']);
    assert.equal(call.route.id, 'backup');
  });

  it("never uses a route reserved for other accounts; its owner's request prefers it", async () => {
    const model = 'gpt-image-1';
    const dedicated = { ...route('dedicated', { provider: 'openai', path: '/openai/v1', model, priority: 50 }) };
    const reserved: Route = { ...dedicated, reservedForUserIds: ['usr_acme'] };
    const shared = route('shared', { provider: 'openai', path: '/openai/v1', model, priority: 10 });
    const routing = createTestRouting();
    const owner = await callImageProvider(
      { dispatcher, routing },
      input([shared, reserved], { model }, { userId: 'usr_acme' }),
    );
    assert.equal(owner.route.id, 'dedicated');
    const other = await callImageProvider({ dispatcher, routing }, input([shared, reserved], { model }));
    assert.equal(other.route.id, 'shared');
    const onlyReserved = await callImageProvider({ dispatcher, routing }, input([reserved], { model })).catch(
      (thrown: unknown) => thrown,
    );
    assert.ok(onlyReserved instanceof UpstreamError, String(onlyReserved));
    assert.equal(onlyReserved.code, 'no_route_available');
  });

  it('returns a content-policy refusal at once as a 400, without trying the next route', async () => {
    const failures: UpstreamFailure[] = [];
    const model = 'gpt-image-1';
    const error = await callImageProvider(
      { dispatcher, routing: createTestRouting(), onAttemptFailed: (_route, failure) => failures.push(failure) },
      input(
        [
          route('first', { provider: 'openai', path: '/openai/v1', model, priority: 1 }),
          route('second', { provider: 'openai', path: '/openai/v1', model, priority: 2 }),
        ],
        { model, prompt: 'forbidden [sim:refusal]' },
      ),
    ).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof InvalidRequestError);
    assert.equal(error.code, 'moderation_blocked');
    assert.deepEqual(failures, []);
  });

  it('gives up on a route past its time limit: 504 when it was the last one', async () => {
    const model = 'imagen-4.0-generate-001';
    const error = await callImageProvider(
      { dispatcher, routing: createTestRouting() },
      input(
        [route('slow', { provider: 'gemini', path: '/gemini', model })],
        {
          model,
          prompt: 'slow [sim:delay-first-byte=30000]',
        },
        { timeoutMs: 300 },
      ),
    ).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof UpstreamTimeoutError, String(error));
  });

  it("stops at the request's deadline: no attempt starts after it", async () => {
    const model = 'imagen-4.0-generate-001';
    const tried: string[] = [];
    const error = await callImageProvider(
      { dispatcher, routing: createTestRouting({ deadlineMs: 300 }) },
      {
        ...input(
          [
            route('slow', { provider: 'gemini', path: '/_fault/delay-first-byte%3D30000/gemini', model, priority: 1 }),
            route('fast', { provider: 'gemini', path: '/gemini', model, priority: 2 }),
          ],
          { model },
        ),
        onRouteTried: (triedRoute) => tried.push(triedRoute.id),
      },
    ).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof UpstreamTimeoutError, String(error));
    assert.deepEqual(tried, ['slow'], 'the deadline was spent on the first route');
  });

  it('reports an upstream error when every route failed, without saying how many there were', async () => {
    const model = 'gemini-2.5-flash-image';
    const error = await callImageProvider(
      { dispatcher, routing: createTestRouting() },
      input(
        [
          route('a', { provider: 'gemini', path: '/_fault/status%3D500/gemini', model, priority: 1 }),
          route('b', { provider: 'gemini', path: '/_fault/status%3D429/gemini', model, priority: 2 }),
        ],
        { model },
      ),
    ).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.code, 'upstream_rate_limited');
    assert.match(error.message, /^The upstream provider failed to draw the image\./);
    assert.doesNotMatch(error.message, /\d+ upstream routes/);
  });

  it('the retry budget caps failover attempts when every route fails', async () => {
    const model = 'gemini-2.5-flash-image';
    const routing = createTestRouting({ retryBudget: { ratio: 0, floorPerWindow: 1, windowMs: 60_000 } });
    const failing = [1, 2, 3].map((priority) =>
      route(`sick-${priority}`, { provider: 'gemini', path: '/_fault/status%3D500/gemini', model, priority }),
    );
    const attempts = async () => {
      let count = 0;
      await callImageProvider(
        { dispatcher, routing },
        { ...input(failing, { model }), onRouteTried: () => (count += 1) },
      ).catch(() => undefined);
      return count;
    };
    assert.equal(await attempts(), 2, 'the first attempt and the one retry of the floor');
    assert.equal(await attempts(), 1, 'the budget is spent: one attempt, no failover');
  });

  it('feeds route health: a route whose breaker opened is skipped by the next call', async () => {
    const routing = createRouting({
      clock: { nowMs: () => 1_000_000 },
      random: () => 0.5,
      settings: { ...defaultRoutingSettings, breaker: { failureThreshold: 1, coolDownMs: 60_000 } },
    });
    const model = 'imagen-4.0-generate-001';
    const broken = route('broken', { provider: 'gemini', path: '/_fault/status%3D500/gemini', model, priority: 1 });
    const good = route('good', { provider: 'gemini', path: '/gemini', model, priority: 2 });
    const call = (routes: Route[]) => callImageProvider({ dispatcher, routing }, input(routes, { model }));
    assert.equal((await call([broken, good])).attemptCount, 2);
    const next = await call([broken, good]);
    assert.deepEqual([next.route.id, next.attemptCount], ['good', 1], 'the open breaker kept the broken route out');
    const error = await call([broken]).catch((thrown: unknown) => thrown);
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.code, 'no_route_available');
  });
});
