import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFastOpenAiUpstream, type FastOpenAiUpstream } from '../support/fast-openai-upstream.ts';
import { openRawHttpStream } from '../support/raw-http-stream.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

/** The largest buffer the kernel may give one TCP socket in one direction (the third value of tcp_rmem or tcp_wmem). */
function kernelBufferMax(name: 'tcp_rmem' | 'tcp_wmem'): number {
  const values = readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/).map(Number);
  const max = values[2];
  if (max === undefined || !Number.isFinite(max)) throw new Error(`cannot read ${name}: ${values.join(' ')}`);
  return max;
}

/**
 * What may be in flight while the client does not read: the kernel buffers of two loopback connections (each may
 * autotune its receive buffer up to tcp_rmem's maximum, 32 MiB on some machines) plus the streams' high-water marks
 * and the difference of the two wire formats. A gateway that kept pulling would take the whole answer instead, which
 * is sized at one and a half times this limit (at least 100 000 chunks of 1 000 characters, about 110 MB).
 */
const inFlightLimitBytes = 2 * (kernelBufferMax('tcp_rmem') + kernelBufferMax('tcp_wmem')) + 8 * 1024 * 1024;
const contentBytes = 1_000;
const chunkCount = Math.max(100_000, Math.ceil((1.5 * inFlightLimitBytes) / contentBytes));
const answerBytes = chunkCount * contentBytes;

/** Polls `read` until it stops changing for `quietMs` (a hang guard caps the wait), and returns the value. */
async function waitUntilSteady(read: () => number, quietMs: number): Promise<number> {
  let value = read();
  let steadySinceMs = Date.now();
  for (const startedAtMs = Date.now(); Date.now() - startedAtMs < 60_000;) {
    await sleep(100);
    const next = read();
    if (next !== value) [value, steadySinceMs] = [next, Date.now()];
    else if (Date.now() - steadySinceMs >= quietMs) return value;
  }
  return read();
}

describe('a slow client slows the upstream down (backpressure), issue 3', () => {
  let fixture: RoutingFixture;
  let upstream: FastOpenAiUpstream;
  let key: string;

  before(async () => {
    fixture = await startRoutingFixture();
    upstream = await startFastOpenAiUpstream({ chunkCount, contentBytes });
    key = (await fixture.gateway.createUserWithKey({ balanceMicros: 50_000_000 })).key;
  });
  after(async () => {
    await upstream.close();
    await fixture.close();
  });

  const cases = [
    {
      endpoint: '/v1/chat/completions',
      model: 'gpt-4o',
      headers: {} as Record<string, string>,
      body: (model: string) => ({ model, stream: true, messages: [{ role: 'user', content: 'Go on.' }] }),
      lastEvent: 'data: [DONE]\n\n',
    },
    {
      endpoint: '/v1/messages',
      model: 'gpt-4o-mini',
      headers: { 'anthropic-version': '2023-06-01' },
      body: (model: string) => ({
        model,
        max_tokens: 1024,
        stream: true,
        messages: [{ role: 'user', content: 'Go on.' }],
      }),
      lastEvent: 'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    },
  ];

  for (const { endpoint, model, headers, body, lastEvent } of cases) {
    test(`${endpoint}: the upstream stops while the client does not read, and the answer completes once it does`, async () => {
      await fixture.addRoute({ model, base_url: upstream.baseUrl });
      const bytesBefore = upstream.bytesWritten();
      const finishedBefore = upstream.finishedStreams();
      const client = openRawHttpStream({
        url: fixture.gateway.url,
        path: endpoint,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body(model)),
      });
      const head = await client.head;
      client.socket.pause();
      assert.equal(head.status, 200);
      assert.match(head.headers['content-type'] ?? '', /^text\/event-stream/);

      const stalledBytes = (await waitUntilSteady(upstream.bytesWritten, 1_500)) - bytesBefore;
      assert.ok(stalledBytes > 0, 'the upstream started');
      assert.ok(
        stalledBytes < inFlightLimitBytes,
        `the upstream wrote ${stalledBytes} bytes while the client read nothing (limit ${inFlightLimitBytes})`,
      );
      assert.equal(upstream.finishedStreams(), finishedBefore, 'the upstream is held back, not finished');

      client.socket.resume();
      await client.closed;
      assert.equal(upstream.finishedStreams(), finishedBefore + 1, 'the upstream finished once the client read');
      assert.ok(client.bodyBytes() > answerBytes, `${client.bodyBytes()} bytes reached the client`);
      const text = client.bodyText();
      assert.ok(text.endsWith(lastEvent), `the stream ends with ${JSON.stringify(lastEvent)}`);
      assert.ok(!text.includes('"error"'), 'no error event');
    });
  }
});
