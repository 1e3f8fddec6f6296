import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { refusedBodyReadLimit } from '../../src/http/read-past-refused-body.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const bodyLimitBytes = 1024 * 1024;
const piece = Buffer.alloc(64 * 1024, 'x');

type ParsedResponse = { status: number; headers: Record<string, string>; body: string };

/** Reads whole HTTP/1.1 responses (framed by Content-Length) off a socket, in order. */
function readResponses(socket: Socket): { next: () => Promise<ParsedResponse> } {
  let buffered = Buffer.alloc(0);
  const waiting: Array<() => void> = [];
  socket.on('data', (bytes: Buffer) => {
    buffered = Buffer.concat([buffered, bytes]);
    for (const wake of waiting.splice(0)) wake();
  });
  const take = (): ParsedResponse | undefined => {
    const headEnd = buffered.indexOf('\r\n\r\n');
    if (headEnd === -1) return undefined;
    const [statusLine = '', ...lines] = buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    if (buffered.length < headEnd + 4 + length) return undefined;
    const body = buffered.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    buffered = buffered.subarray(headEnd + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  };
  const next = async (): Promise<ParsedResponse> => {
    for (;;) {
      const response = take();
      if (response) return response;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  return { next };
}

describe('a body over the size limit: the client sees the 413 even while it is still sending', () => {
  let gateway: TestGateway;
  let key: string;

  before(async () => {
    gateway = await startTestGateway({ environment: { BODY_LIMIT_BYTES: String(bodyLimitBytes) } });
    ({ key } = await gateway.createUserWithKey({ balanceMicros: 1_000_000 }));
  });
  after(() => gateway.close());

  const openUpload = (contentLength: number) => {
    // Straight to the gateway: the test is about its own sockets, not the recording proxy's.
    const { hostname, port } = new URL(gateway.gateway.url);
    const socket = connect({ host: hostname, port: Number(port) });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer ${key}\r\n` +
        `content-type: application/json\r\ncontent-length: ${contentLength}\r\n\r\n`,
    );
    socket.write(piece);
    return socket;
  };

  test('the 413 arrives first; the rest of the body is read, and the connection serves the next request', async () => {
    const contentLength = 4 * bodyLimitBytes;
    const socket = openUpload(contentLength);
    const errors: Error[] = [];
    socket.on('error', (error) => errors.push(error));
    const responses = readResponses(socket);
    const refused = await responses.next();
    assert.equal(refused.status, 413);
    assert.notEqual(refused.headers.connection, 'close');
    const body = JSON.parse(refused.body) as { error: { code: string; param: string | null } };
    assert.deepEqual([body.error.code, body.error.param], ['payload_too_large', null]);
    for (let sent = piece.length; sent < contentLength; sent += piece.length) {
      if (!socket.write(piece.subarray(0, Math.min(piece.length, contentLength - sent)))) await once(socket, 'drain');
    }
    socket.write(`GET /healthz HTTP/1.1\r\nhost: gateway\r\n\r\n`);
    const next = await responses.next();
    assert.equal(next.status, 200);
    assert.deepEqual(errors, []);
    socket.destroy();
  });

  test('a client that sends on past the read limit has its connection closed after the 413', async () => {
    const socket = openUpload(1024 * 1024 * 1024);
    socket.on('error', () => undefined);
    const responses = readResponses(socket);
    // `once` would reject on the reset the client gets for bytes the server no longer reads.
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const refused = await responses.next();
    assert.equal(refused.status, 413);
    let sent = piece.length;
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    while (!isClosed && sent < 4 * refusedBodyReadLimit.bytes) {
      sent += piece.length;
      if (!socket.write(piece)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
    }
    await closed;
    assert.ok(sent < 4 * refusedBodyReadLimit.bytes, `the server closed the connection (${sent} bytes sent)`);
    assert.ok(sent > refusedBodyReadLimit.bytes, `the server read up to its limit first (${sent} bytes sent)`);
  });
});
