import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  mergeBodies,
  totalOf,
  type ConversationBody,
} from '../../src/features/chat/conversations/conversation-body.ts';
import { readSse } from '../../src/features/chat/streaming/read-sse.ts';
import { streamWebSearch } from '../../src/features/chat/streaming/stream-web-search.ts';
import { checkNewPassword } from '../../src/features/auth/check-password.ts';

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

test('server-sent events are read across chunk boundaries; comments are skipped', async () => {
  const events = [];
  for await (const event of readSse(
    streamOf([': keep-alive\n\nda', 'ta: {"a":1}\n', '\nevent: done\r\ndata: x\r\ndata: y\r\n\r\n', 'data: [DONE]']),
  )) {
    events.push(event);
  }
  assert.deepEqual(events, [
    { event: undefined, data: '{"a":1}' },
    { event: 'done', data: 'x\ny' },
    { event: undefined, data: '[DONE]' },
  ]);
});

test('a web-search answer keeps only http(s) citations: javascript:, data: and relative links never become links', async (t) => {
  const annotation = (url: string) => ({
    type: 'response.output_text.annotation.added',
    annotation: { type: 'url_citation', url, title: url, start_index: 0, end_index: 1 },
  });
  const events = [
    { type: 'response.output_text.delta', delta: 'An answer.' },
    annotation('javascript:alert(document.cookie)'),
    annotation('https://example.com/a'),
    annotation('data:text/html,<script>alert(1)</script>'),
    annotation('/relative/path'),
    annotation('HTTP://Example.org/b'),
    annotation('https://example.com/a'),
    annotation('ftp://files.example.com/c'),
    { type: 'response.completed', response: { usage: { input_tokens: 5, output_tokens: 3, cost: 0.000012 } } },
  ];
  const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
  // The page's fetch, answered with the Responses stream (the unit runs outside a browser, without a gateway).
  t.mock.method(globalThis, 'fetch', async () => new Response(streamOf(body), { status: 200 }));
  const outcome = await streamWebSearch({
    apiKey: 'sk-test',
    model: 'gpt-4.1',
    messages: [{ role: 'user', content: 'Search' }],
    signal: new AbortController().signal,
    onText: () => undefined,
  });
  assert.equal(outcome.status, 'complete');
  assert.deepEqual(
    outcome.citations.map((citation) => citation.url),
    ['https://example.com/a', 'HTTP://Example.org/b'],
  );
});

test('a conversation’s total adds exact micro-dollars; a merge keeps every message of both copies', () => {
  const message = (id: string, costUsd: number) => ({
    id,
    role: 'assistant' as const,
    content: id,
    createdAt: '2026-01-01T00:00:00Z',
    usage: { inputTokens: 10, outputTokens: 5, costUsd },
  });
  const stored: ConversationBody = { model: 'm', isWebSearch: false, messages: [message('a', 0.1), message('b', 0.2)] };
  assert.deepEqual(totalOf(stored), { costUsd: 0.3, tokens: 30 });
  const local: ConversationBody = {
    model: 'n',
    isWebSearch: true,
    messages: [message('a', 0.1), message('c', 0.000001)],
  };
  const merged = mergeBodies(stored, local);
  assert.deepEqual(
    merged.messages.map((item) => item.id),
    ['a', 'b', 'c'],
  );
  assert.equal(merged.model, 'n');
});

test('new passwords follow the server’s rules', () => {
  const email = 'me@example.com';
  assert.equal(checkNewPassword({ password: 'short', confirmation: 'short', email }), 'tooShort');
  assert.equal(checkNewPassword({ password: 'aaaabbbbaaaa', confirmation: 'aaaabbbbaaaa', email }), 'tooSimple');
  assert.equal(checkNewPassword({ password: email, confirmation: email, email }), 'isEmail');
  assert.equal(checkNewPassword({ password: 'good password 1', confirmation: 'good password 2', email }), 'differs');
  assert.equal(checkNewPassword({ password: 'good password 1', confirmation: 'good password 1', email }), undefined);
});
