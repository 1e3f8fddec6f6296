import { createServer } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';

/**
 * The raw floor: the least a Node proxy can do for a chat call. node:http in, undici out (keep-alive pool), the JSON
 * body parsed and its `model` rewritten, the answer (JSON or SSE) piped back as it arrives. No auth, no billing.
 * Run: `node bench/processes/floor-proxy.ts <upstream-url> <upstream-model>`; prints `listening <url>` once ready.
 */
const upstreamUrl = `${process.argv[2] ?? ''}/v1/chat/completions`;
const upstreamModel = process.argv[3] ?? 'mock';
const dispatcher = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });

const server = createServer(async (incoming, outgoing) => {
  try {
    let text = '';
    for await (const piece of incoming) text += String(piece);
    const body = JSON.parse(text) as Record<string, unknown>;
    body.model = upstreamModel;
    const answer = await request(upstreamUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer floor' },
      body: JSON.stringify(body),
      dispatcher,
    });
    outgoing.writeHead(answer.statusCode, {
      'content-type': String(answer.headers['content-type'] ?? 'application/json'),
    });
    await pipeline(answer.body, outgoing);
  } catch {
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.end();
  }
});
server.keepAliveTimeout = 120_000;

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address) process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
});
