import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

/** A recorded OpenAI stream (role, two text chunks, finish, usage), replayed byte for byte by a loopback upstream. */
const recorded = readFileSync(
  new URL('../../src/providers/openai/__fixtures__/streamed-text-with-usage.chunks.txt', import.meta.url),
  'utf8',
);
const dataLines = (text: string) => text.split('\n').filter((line) => line.startsWith('data: '));

async function startReplayUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('OpenAI streams relayed as sent (issue 20)', () => {
  let fixture: RoutingFixture;
  let upstream: { url: string; server: Server };

  before(async () => {
    upstream = await startReplayUpstream();
    fixture = await startRoutingFixture();
    await fixture.addRoute({ model: 'gpt-4o', base_url: `${upstream.url}/v1`, upstream_model: 'gpt-4o-2024-08-06' });
  });
  after(async () => {
    await fixture.close();
    upstream.server.close();
  });

  test('the client reads the vendor’s bytes but for id, created, model and a null usage; usage is billed as before', async () => {
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    assert.equal(response.status, 200);
    const sent = dataLines(await response.text());
    const first = JSON.parse(sent[0]?.slice('data: '.length) ?? '{}') as { id: string; created: number };
    assert.match(first.id, /^chatcmpl-/);
    const upstreamLines = dataLines(recorded);
    // Four answer chunks as sent, then the gateway's usage chunk (with the cost), then [DONE].
    const expected = upstreamLines
      .slice(0, 4)
      .map((line) =>
        line
          .replace('"chatcmpl-9tZXFjiGKgtGWGpUqPBA0Yh5e7xZK"', JSON.stringify(first.id))
          .replace('"created":1723031665', `"created":${first.created}`)
          .replace('"model":"gpt-4o-2024-08-06"', '"model":"gpt-4o"')
          .replace(',"usage":null', ''),
      );
    assert.deepEqual(sent.slice(0, 4), expected);
    assert.equal(sent.length, 6);
    assert.equal(sent[5], 'data: [DONE]');

    const usageChunk = JSON.parse(sent[4]?.slice('data: '.length) ?? '{}') as {
      id: string;
      choices: unknown[];
      usage: { prompt_tokens: number; completion_tokens: number; cost: number };
    };
    assert.equal(usageChunk.id, first.id);
    assert.deepEqual(usageChunk.choices, []);
    assert.equal(usageChunk.usage.prompt_tokens, 17);
    assert.equal(usageChunk.usage.completion_tokens, 10);

    const record = await findUsageRecord(fixture.gateway.gateway.database.db, first.id.replace(/^chatcmpl-/, ''));
    assert.ok(record, 'a usage record');
    assert.equal(record.status, 'completed');
    assert.equal(record.input_tokens, 17);
    assert.equal(record.output_tokens, 10);
    assert.ok(record.cost_micros > 0);
    assert.equal(usageChunk.usage.cost, record.cost_micros / 1_000_000);
  });
});
