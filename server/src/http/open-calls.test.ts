import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { createOpenCalls } from './open-calls.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('cut closes the connections of the named open /v1 calls only, and forgets calls that ended', async (t) => {
  const app = Fastify({ genReqId: (request) => String(request.headers['x-test-id']) });
  t.after(() => app.close());
  const openCalls = createOpenCalls();
  openCalls.track(app);
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const clientsGone: string[] = [];
  let arrived = 0;
  app.post('/v1/wait', async (request, reply) => {
    arrived += 1;
    // What every route listens to for a client that leaves.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) clientsGone.push(request.id);
    });
    await answered;
    return { id: request.id };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const call = (id: string) =>
    fetch(`${url}/v1/wait`, { method: 'POST', headers: { 'x-test-id': id } }).then((response) => response.json());
  const cutCall = call('req_cut');
  const keptCall = call('req_kept');
  for (let waited = 0; arrived < 2 && waited < 5_000; waited += 10) await sleep(10);
  assert.equal(openCalls.cut(['req_cut', 'req_unknown']), 1, 'only the open call named is cut');
  await assert.rejects(cutCall, 'its client sees the connection close');
  for (let waited = 0; clientsGone.length === 0 && waited < 5_000; waited += 10) await sleep(10);
  assert.deepEqual(clientsGone, ['req_cut'], 'its route saw its client leave');
  answer();
  assert.deepEqual(await keptCall, { id: 'req_kept' }, 'the other call answers');
  // Its response's close comes in a later phase of the event loop than the client's read of the answer.
  await sleep(100);
  assert.equal(openCalls.cut(['req_cut', 'req_kept']), 0, 'ended calls are forgotten');
});
