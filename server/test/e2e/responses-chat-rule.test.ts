import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

/** OpenAI's recorded answer of a search model: its text and a `url_citation` annotation on it. */
const searchAnswer: unknown = JSON.parse(
  readFileSync(new URL('../../src/providers/openai/__fixtures__/search-annotations.json', import.meta.url), 'utf8'),
);
const annotation = {
  type: 'url_citation',
  url_citation: { url: 'https://www.uefa.com/euro2024/', title: 'UEFA EURO 2024', start_index: 0, end_index: 19 },
};
/** The same answer streamed, as OpenAI streams a search model: annotations in a delta of their own. */
const searchChunks = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'Spain won Euro 2024' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { annotations: [annotation] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  { choices: [], usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 } },
].map((chunk) => ({
  id: 'chatcmpl-s',
  object: 'chat.completion.chunk',
  created: 1741569952,
  model: 'gpt-4o',
  ...chunk,
}));

/**
 * Issue 4 item 7: `/v1/chat/completions` returns no citations, even when the vendor's model searched and annotated
 * its answer, and refuses `web_search_options` (vendor search the gateway would not bill) with a 400 that points to
 * `/v1/responses`.
 */
describe('chat completions carry no citations', () => {
  let fixture: RoutingFixture;
  let upstream: Server;

  before(async () => {
    fixture = await startRoutingFixture();
    upstream = createServer((request, response) => {
      let body = '';
      request.on('data', (piece: Buffer) => (body += piece.toString('utf8')));
      request.on('end', () => {
        const isStreaming = (JSON.parse(body) as { stream?: boolean }).stream === true;
        if (!isStreaming) {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(searchAnswer));
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of searchChunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        response.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    await fixture.addRoute({ model: 'gpt-4o', base_url: `http://127.0.0.1:${port}/v1` });
  });
  after(async () => {
    await fixture.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  test('an upstream answer with url_citation annotations reaches the client without them, whole or streamed', async () => {
    const completion = await fixture.client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Who won Euro 2024?' }],
    });
    const message = completion.choices[0]?.message;
    assert.ok(message?.content?.startsWith('Spain won Euro 2024'), 'the answer text is kept');
    assert.ok(message);
    assert.equal('annotations' in message, false);
    const stream = await fixture.client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'Who won Euro 2024?' }],
    });
    let text = '';
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        assert.equal('annotations' in choice.delta, false, 'no chunk carries annotations');
        text += choice.delta.content ?? '';
      }
    }
    assert.equal(text, 'Spain won Euro 2024');
  });

  test('web_search_options is a 400 pointing to /v1/responses, before any upstream call or charge', async () => {
    const upstreamBefore = await fixture.upstreamRequests();
    const balance = () => sumLedgerAccount(fixture.gateway.gateway.database.db, userLedgerAccount(fixture.userId));
    const balanceBefore = await balance();
    await assert.rejects(
      fixture.client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'News today?' }],
        web_search_options: {},
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.equal(error.param, 'web_search_options');
        assert.match(error.message, /\/v1\/responses/);
        return true;
      },
    );
    assert.equal(await fixture.upstreamRequests(), upstreamBefore);
    assert.equal(await balance(), balanceBefore);
  });
});
