import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { UpstreamFailureError } from '../provider-adapter.ts';
import { Agent } from 'undici';
import {
  postJson,
  postJsonWhole,
  type PostJsonInput,
  type UpstreamResponse,
  type UpstreamWholeResponse,
} from './post-json.ts';
import { createUpstreamAgent } from '../../upstream/create-upstream-agent.ts';
import { readCappedBytes } from '../../upstream/read-capped-body.ts';
import { UpstreamTransportError } from '../../upstream/upstream-transport-error.ts';
import { readUpstreamBody, readUpstreamText } from './read-upstream-body.ts';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const handlers: Record<string, Handler> = {
  '/echo': (request, response, body) => {
    response.writeHead(200, { 'content-type': 'application/json', 'x-trace': ['a', 'b'] });
    response.end(JSON.stringify({ method: request.method, auth: request.headers.authorization, body }));
  },
  '/error': (_request, response) => {
    response.writeHead(429, { 'retry-after': '2' });
    response.end('{"error":{"message":"slow down"}}');
  },
  '/html-error': (_request, response) => {
    response.writeHead(502, { 'content-type': 'text/html' });
    response.end('<html>Bad gateway</html>');
  },
  '/silent': () => undefined,
  '/chunked-text': (_request, response) => {
    // A byte-order mark, a character split across two chunks, an invalid sequence: decoded as TextDecoder would.
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write(Buffer.from([0xef, 0xbb, 0xbf, 0x22, 0x7a, 0xc3]));
    setTimeout(() => response.end(Buffer.from([0xbc, 0x72, 0x69, 0x63, 0x68, 0xff, 0x22])), 20);
  },
  '/stall-after-first-chunk': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: {"a":1}\n\n');
  },
  '/large': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    for (let index = 0; index < 40; index += 1) response.write('x'.repeat(8 * 1024));
    response.end('end');
  },
};

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => handlers[request.url ?? '']?.(request, response, body));
});
// The test server is on loopback, so this pool allows private addresses (the SSRF guard has its own tests).
const agent = createUpstreamAgent({ connectTimeoutMs: 1000, addresses: { allowPrivate: true, trustedOrigins: [] } });
let baseUrl = '';

type CallOptions = { signal?: AbortSignal; firstByteTimeoutMs?: number; idleTimeoutMs?: number; dispatcher?: Agent };
const callWith = <Reply>(send: (input: PostJsonInput) => Promise<Reply>, path: string, options: CallOptions = {}) =>
  send({
    request: {
      url: `${baseUrl}${path}`,
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"x":1}',
    },
    dispatcher: options.dispatcher ?? agent,
    signal: options.signal ?? new AbortController().signal,
    timeouts: {
      connectTimeoutMs: 1000,
      firstByteTimeoutMs: options.firstByteTimeoutMs ?? 5000,
      idleTimeoutMs: options.idleTimeoutMs ?? 5000,
    },
  });
const callStreaming = (path: string, options: CallOptions = {}) => callWith(postJson, path, options);

const isRetryable = (status: number) => (error: unknown) => {
  assert.ok(error instanceof UpstreamFailureError, String(error));
  assert.equal(error.failure.kind, 'retryable');
  assert.equal(error.failure.status, status);
  return true;
};

async function drain(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _chunk of body);
}

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

// postJsonWhole (undici's dispatch with our own handler) must answer a whole read exactly as postJson does.
for (const [name, send] of [
  ['postJson', postJson],
  ['postJsonWhole', postJsonWhole],
] as const) {
  const call = (path: string, options: CallOptions = {}) =>
    callWith<UpstreamResponse | UpstreamWholeResponse>(send, path, options);
  describe(`${name}, a body read whole`, () => {
    it('posts the body with the headers and returns status, flattened headers and body', async () => {
      const response = await call('/echo');
      assert.equal(response.status, 200);
      assert.equal(response.headers['x-trace'], 'a, b');
      assert.deepEqual(await readUpstreamBody(response.body), { method: 'POST', auth: 'Bearer k', body: '{"x":1}' });
    });

    it('returns error statuses with a readable body, JSON or text', async () => {
      const limited = await call('/error');
      assert.equal(limited.status, 429);
      assert.equal(limited.headers['retry-after'], '2');
      assert.deepEqual(await readUpstreamBody(limited.body), { error: { message: 'slow down' } });
      const html = await call('/html-error');
      assert.equal(await readUpstreamBody(html.body), '<html>Bad gateway</html>');
    });

    it('cuts a body at the byte limit', async () => {
      const response = await call('/echo');
      assert.equal(await readUpstreamBody(response.body, { maxBytes: 5 }), '{"met');
    });

    it('reads a whole body over several chunks as TextDecoder decodes it', async () => {
      const response = await call('/chunked-text');
      const expected = new TextDecoder().decode(
        Buffer.from([0xef, 0xbb, 0xbf, 0x22, 0x7a, 0xc3, 0xbc, 0x72, 0x69, 0x63, 0x68, 0xff, 0x22]),
      );
      assert.equal(await readUpstreamText(response.body), expected);
      assert.equal(expected, '"zürich\ufffd"');
    });

    it('cuts a whole body at the byte limit inside a character as TextDecoder does, and frees the socket', async () => {
      const response = await call('/chunked-text');
      assert.equal(await readUpstreamBody(response.body, { maxBytes: 6 }), '"z\ufffd');
      assert.equal((await call('/echo')).status, 200);
    });

    it('refuses a whole body above the limit when the caller says fail', async () => {
      const response = await call('/echo');
      await assert.rejects(readCappedBytes(response.body, { maxBytes: 10 }), (error) => {
        assert.ok(error instanceof UpstreamTransportError);
        assert.equal(error.kind, 'body_too_large');
        return true;
      });
    });

    it('turns a silence mid-body into a retryable 504 when the body is read whole', async () => {
      const response = await call('/stall-after-first-chunk', { idleTimeoutMs: 200 });
      await assert.rejects(readUpstreamText(response.body), isRetryable(504));
    });

    it('fails, not hangs, when the body broke off before the whole read began', async () => {
      const response = await call('/stall-after-first-chunk', { idleTimeoutMs: 100 });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await assert.rejects(readUpstreamText(response.body), isRetryable(504));
    });

    it('rethrows the abort reason when the client leaves while a whole body is read', async () => {
      const controller = new AbortController();
      const reason = new Error('client disconnected');
      const response = await call('/stall-after-first-chunk', { signal: controller.signal });
      setTimeout(() => controller.abort(reason), 50);
      await assert.rejects(readUpstreamText(response.body), (error) => error === reason);
    });

    it('turns a missing first byte into a retryable 504', async () => {
      await assert.rejects(call('/silent', { firstByteTimeoutMs: 200 }), isRetryable(504));
    });

    it('turns a refused connection into a retryable 502', async () => {
      const refused = send({
        request: { url: 'http://127.0.0.1:1/v1', headers: {}, body: '{}' },
        dispatcher: agent,
        signal: new AbortController().signal,
        timeouts: { connectTimeoutMs: 1000, firstByteTimeoutMs: 1000, idleTimeoutMs: 1000 },
      });
      await assert.rejects(refused, isRetryable(502));
    });

    it('rethrows the abort reason when the client leaves before the answer', async () => {
      const controller = new AbortController();
      const reason = new Error('client disconnected');
      setTimeout(() => controller.abort(reason), 50);
      await assert.rejects(call('/silent', { signal: controller.signal }), (error) => error === reason);
    });
    it('frees the socket of a body cut at its cap, for the next call on a one-connection pool', async () => {
      const single = new Agent({ connections: 1 });
      try {
        // The upstream never ends this body: only the cut can free the one connection for the next call.
        const stalled = await call('/stall-after-first-chunk', { dispatcher: single, idleTimeoutMs: 60_000 });
        assert.equal(await readUpstreamBody(stalled.body, { maxBytes: 4 }), 'data');
        const next = await call('/echo', { dispatcher: single, signal: AbortSignal.timeout(2000) });
        assert.equal(next.status, 200);
        assert.equal((await readUpstreamBody(next.body)) instanceof Object, true);
      } finally {
        await single.close();
      }
    });

    it('reads a body larger than one read-ahead whole when the read begins late', async () => {
      const response = await call('/large');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const text = await readUpstreamText(response.body);
      assert.equal(text.length, 40 * 8 * 1024 + 3);
      assert.ok(text.endsWith('xend'));
    });

    it('refuses a private upstream through the pool guard as a retryable 502 with its code', async () => {
      const guarded = createUpstreamAgent({
        connectTimeoutMs: 1000,
        addresses: { allowPrivate: false, trustedOrigins: [] },
      });
      try {
        await assert.rejects(call('/echo', { dispatcher: guarded }), (error) => {
          assert.ok(isRetryable(502)(error) && error instanceof UpstreamFailureError);
          assert.equal(error.failure.vendorCode, 'private_upstream_refused');
          return true;
        });
      } finally {
        await guarded.close();
      }
    });

    it('rethrows the abort reason when the client left before the call', async () => {
      const controller = new AbortController();
      const reason = new Error('client disconnected');
      controller.abort(reason);
      await assert.rejects(call('/echo', { signal: controller.signal }), (error) => error === reason);
    });
  });
}

describe('postJson, a streamed body', () => {
  it('turns a silence mid-body into a retryable 504', async () => {
    const response = await callStreaming('/stall-after-first-chunk', { idleTimeoutMs: 200 });
    await assert.rejects(drain(response.body), isRetryable(504));
  });

  it('rethrows the abort reason when the client leaves mid-stream', async () => {
    const controller = new AbortController();
    const reason = new Error('client disconnected');
    const response = await callStreaming('/stall-after-first-chunk', { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(drain(response.body), (error) => error === reason);
  });
});
