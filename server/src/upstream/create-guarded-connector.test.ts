import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Agent } from 'undici';
import { describeRefusal, type UpstreamAddressPolicy } from './create-guarded-connector.ts';
import { createUpstreamAgent } from './create-upstream-agent.ts';
import { requestBuffered } from './request-buffered.ts';
import { UpstreamTransportError } from './upstream-transport-error.ts';

let requestCount = 0;
const server = createServer((_request, response) => {
  requestCount += 1;
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"ok":true}');
});
let port = 0;
const agents: Agent[] = [];

/** Posts to `url` through a fresh pool with `policy`: the status, or the transport failure's code. */
async function post(url: string, policy: UpstreamAddressPolicy): Promise<number | string> {
  const agent = createUpstreamAgent({ connectTimeoutMs: 2000, addresses: policy });
  agents.push(agent);
  try {
    const reply = await requestBuffered(
      {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body: '{}',
        timeoutMs: 2000,
        maxBodyBytes: 1024,
      },
      agent,
    );
    return reply.status;
  } catch (error) {
    assert.ok(error instanceof UpstreamTransportError, String(error));
    assert.equal(error.kind, 'connection', 'a refused address is a connection failure, so the route fails over');
    return error.code;
  }
}

const guarded: UpstreamAddressPolicy = { allowPrivate: false, trustedOrigins: [] };

describe('the SSRF guard at connect time', () => {
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a loopback address literal without connecting', async () => {
    const before = requestCount;
    assert.equal(await post(`http://127.0.0.1:${port}/v1`, guarded), 'private_upstream_refused');
    assert.equal(await post(`http://[::ffff:127.0.0.1]:${port}/v1`, guarded), 'private_upstream_refused');
    assert.equal(await post(`http://[::1]:${port}/v1`, guarded), 'private_upstream_refused');
    assert.equal(requestCount, before, 'no request reached the server');
  });

  it('refuses a host name that resolves to a private address (the check is on what the socket connects to)', async () => {
    const before = requestCount;
    assert.equal(await post(`http://localhost:${port}/v1`, guarded), 'private_upstream_refused');
    assert.equal(requestCount, before);
  });

  it('lets the trusted origin (the sandbox simulator) through, and nothing else on the same address', async () => {
    const policy = { allowPrivate: false, trustedOrigins: [`http://127.0.0.1:${port}`] };
    assert.equal(await post(`http://127.0.0.1:${port}/v1`, policy), 200);
    assert.equal(await post(`http://localhost:${port}/v1`, policy), 'private_upstream_refused');
    assert.equal(await post(`http://127.0.0.2:${port}/v1`, policy), 'private_upstream_refused');
  });

  it('allows every address when the operator allows private upstreams', async () => {
    const open = { allowPrivate: true, trustedOrigins: [] };
    assert.equal(await post(`http://127.0.0.1:${port}/v1`, open), 200);
    assert.equal(await post(`http://localhost:${port}/v1`, open), 200);
  });
});

describe('describeRefusal', () => {
  it('names the address and the range, and the name it came from', () => {
    assert.equal(describeRefusal('10.0.0.8', ['10.0.0.8']), 'The upstream address 10.0.0.8 is a private address.');
    assert.equal(
      describeRefusal('rebind.example', ['93.184.215.14', '127.0.0.1']),
      'The upstream address rebind.example, which resolves to 127.0.0.1, is a loopback address.',
    );
    assert.equal(
      describeRefusal('api.example', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']),
      undefined,
    );
  });
});
