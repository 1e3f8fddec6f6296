import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpstreamFailureError, type SseEvent } from '../provider-adapter.ts';
import { maxSseEventChars, parseSse } from './parse-sse.ts';

const encoder = new TextEncoder();

async function collect(pieces: ReadonlyArray<string | Uint8Array>): Promise<SseEvent[]> {
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const piece of pieces) yield typeof piece === 'string' ? encoder.encode(piece) : piece;
  }
  const events: SseEvent[] = [];
  for await (const event of parseSse(body())) events.push(event);
  return events;
}

describe('parseSse', () => {
  it('splits events on blank lines and parses their JSON data', async () => {
    const events = await collect(['data: {"a":1}\n\ndata: {"a":2}\n\n']);
    assert.deepEqual(events, [
      { event: undefined, data: { a: 1 }, text: '{"a":1}' },
      { event: undefined, data: { a: 2 }, text: '{"a":2}' },
    ]);
  });

  it('accepts \\r\\n and lone \\r line ends, and mixes of them', async () => {
    const events = await collect(['data: {"a":1}\r\n\r\ndata: {"a":2}\r\rdata: {"a":3}\n\r\n']);
    assert.deepEqual(
      events.map((event) => event.data),
      [{ a: 1 }, { a: 2 }, { a: 3 }],
    );
  });

  it('does not split \\r\\n that falls across two chunks into two line ends', async () => {
    const events = await collect(['data: {"a":1}\r', '\n\r', '\ndata: {"a":2}\r\n\r\n']);
    assert.deepEqual(
      events.map((event) => event.data),
      [{ a: 1 }, { a: 2 }],
    );
  });

  it('ends a line at a \\r that closes one chunk when the next does not start with \\n', async () => {
    const events = await collect(['data: {"a":1}\r', '\rdata: {"a":2}\r', '\r']);
    assert.deepEqual(
      events.map((event) => event.data),
      [{ a: 1 }, { a: 2 }],
    );
  });

  it('keeps a line whose bytes arrive over several chunks, and a byte-order mark split across them', async () => {
    const bom = [0xef, 0xbb, 0xbf];
    const events = await collect([
      new Uint8Array(bom.slice(0, 1)),
      new Uint8Array(bom.slice(1)),
      'da',
      'ta: {"te',
      'xt":"ok"}\n',
      '\n',
    ]);
    assert.deepEqual(events, [{ event: undefined, data: { text: 'ok' }, text: '{"text":"ok"}' }]);
  });

  it('joins multi-line data with \\n', async () => {
    const events = await collect(['data: {"text":\ndata: "two lines"}\n\n']);
    assert.deepEqual(events[0]?.data, { text: 'two lines' });
  });

  it('keeps event names and ignores comments, ids and retry fields', async () => {
    const events = await collect([
      ': keep-alive\n\n',
      'event: message_start\nid: 7\nretry: 1000\n: note\ndata: {"type":"message_start"}\n\n',
    ]);
    assert.deepEqual(events, [
      { event: 'message_start', data: { type: 'message_start' }, text: '{"type":"message_start"}' },
    ]);
  });

  it('strips only one space after the colon and accepts none', async () => {
    const events = await collect(['data:{"a":1}\n\nevent:x\ndata:  {"a":2}\n\n']);
    assert.deepEqual(events, [
      { event: undefined, data: { a: 1 }, text: '{"a":1}' },
      { event: 'x', data: { a: 2 }, text: ' {"a":2}' },
    ]);
  });

  it('ends the stream at data: [DONE]', async () => {
    const events = await collect(['data: {"a":1}\n\ndata: [DONE]\n\ndata: {"a":2}\n\n']);
    assert.equal(events.length, 1);
  });

  it('skips events whose data is empty', async () => {
    const events = await collect(['data:\n\ndata: \n\nevent: ping\n\ndata: {"a":1}\n\n']);
    assert.deepEqual(events, [{ event: undefined, data: { a: 1 }, text: '{"a":1}' }]);
  });

  it('decodes UTF-8 characters split across chunks', async () => {
    const bytes = encoder.encode('data: {"text":"héllo 👋"}\n\n');
    const pieces = Array.from(bytes, (byte) => new Uint8Array([byte]));
    const events = await collect(pieces);
    assert.deepEqual(events[0]?.data, { text: 'héllo 👋' });
  });

  it('ignores a byte-order mark at the start', async () => {
    const events = await collect([new Uint8Array([0xef, 0xbb, 0xbf]), 'data: {"a":1}\n\n']);
    assert.deepEqual(events[0]?.data, { a: 1 });
  });

  it('dispatches an event left open when the body ends', async () => {
    const events = await collect(['data: {"a":1}\n\ndata: {"a":2}']);
    assert.deepEqual(
      events.map((event) => event.data),
      [{ a: 1 }, { a: 2 }],
    );
  });

  it('throws a retryable UpstreamFailureError for data that is not JSON', async () => {
    await assert.rejects(collect(['data: {"a":\n\n']), (error: unknown) => {
      assert.ok(error instanceof UpstreamFailureError);
      assert.equal(error.failure.kind, 'retryable');
      assert.equal(error.failure.vendorCode, 'malformed_sse_data');
      return true;
    });
  });

  /** A faulty upstream that sends `piece` forever; counts what was read. */
  function endlessBody(piece: string): { body: AsyncGenerator<Uint8Array>; readChars: () => number } {
    let readChars = 0;
    const bytes = encoder.encode(piece);
    async function* body(): AsyncGenerator<Uint8Array> {
      for (;;) {
        readChars += piece.length;
        yield bytes;
      }
    }
    return { body: body(), readChars: () => readChars };
  }

  const isTooLarge = (error: unknown) => {
    assert.ok(error instanceof UpstreamFailureError, String(error));
    assert.equal(error.failure.kind, 'retryable');
    assert.equal(error.failure.status, 502);
    assert.equal(error.failure.vendorCode, 'sse_event_too_large');
    return true;
  };

  it('fails, as an upstream error, on a line that never ends instead of buffering it without bound', async () => {
    const upstream = endlessBody('x'.repeat(64 * 1024));
    const drain = async () => {
      for await (const _event of parseSse(upstream.body)) assert.fail('no event can be complete');
    };
    await assert.rejects(drain(), isTooLarge);
    assert.ok(upstream.readChars() <= maxSseEventChars + 64 * 1024, `read ${upstream.readChars()} characters`);
  });

  it('fails on an event whose data lines never end with a blank line', async () => {
    const upstream = endlessBody(`data: ${'y'.repeat(1000)}\n`);
    const events: SseEvent[] = [];
    const drain = async () => {
      for await (const event of parseSse(upstream.body)) events.push(event);
    };
    await assert.rejects(drain(), isTooLarge);
    assert.deepEqual(events, []);
    // The limit counts the data, not the `data: ` prefixes (6 of every 1 007 characters read).
    assert.ok(upstream.readChars() <= maxSseEventChars * 1.01, `read ${upstream.readChars()} characters`);
  });

  it('passes a large event under the limit, arriving in pieces', async () => {
    const text = 'z'.repeat(maxSseEventChars - 1024);
    const line = `data: ${JSON.stringify({ text })}\n\n`;
    const pieces = Array.from({ length: Math.ceil(line.length / 65_536) }, (_, index) =>
      line.slice(index * 65_536, (index + 1) * 65_536),
    );
    const events = await collect(pieces);
    assert.equal((events[0]?.data as { text: string }).text.length, text.length);
  });
});
