import { UpstreamFailureError, type SseEvent } from '../provider-adapter.ts';

type PendingEvent = { name: string | undefined; dataLines: string[]; dataChars: number };

/**
 * The largest event accepted, in characters of its unfinished line plus the data lines it has gathered: far above any
 * real chunk (a whole image as base64 is a few MB), low enough that a faulty upstream that never ends a line or an
 * event cannot grow the gateway's memory without bound.
 */
export const maxSseEventChars = 8 * 1024 * 1024;

/**
 * Splits an upstream byte stream into server-sent events and parses each `data` as JSON (the WHATWG event-stream
 * rules: `\n`, `\r\n` or `\r` line ends, multi-line `data` joined with `\n`, `:` comment lines ignored). A
 * `data: [DONE]` event ends the stream. Events without data (keep-alives) are skipped. An event still open when
 * the body ends is dispatched: some vendors close without a final blank line. An event over `maxSseEventChars` fails
 * the attempt as an upstream error.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export async function* parseSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let pending = newPendingEvent();
  let buffer = '';
  for await (const bytes of body) {
    const text = decoder.decode(bytes, { stream: true });
    // A piece without a line end only grows the unfinished line: no need to scan the whole line again.
    const hasLineEnd = /[\r\n]/.test(text) || buffer.endsWith('\r');
    buffer += text;
    if (!hasLineEnd) {
      checkEventSize(pending, buffer);
      continue;
    }
    const { lines, rest } = splitLines(buffer);
    buffer = rest;
    for (const line of lines) {
      if (line !== '') {
        applyField(pending, line);
        checkEventSize(pending, buffer);
        continue;
      }
      const event = dispatch(pending);
      pending = newPendingEvent();
      if (event === 'done') return;
      if (event !== undefined) yield event;
    }
    checkEventSize(pending, buffer);
  }
  const tail = (buffer + decoder.decode()).replace(/\r$/, '');
  for (const line of tail === '' ? [] : tail.split(/\r\n|\r|\n/)) applyField(pending, line);
  const event = dispatch(pending);
  if (event !== undefined && event !== 'done') yield event;
}

function newPendingEvent(): PendingEvent {
  return { name: undefined, dataLines: [], dataChars: 0 };
}

function checkEventSize(pending: PendingEvent, unfinishedLine: string): void {
  if (pending.dataChars + unfinishedLine.length <= maxSseEventChars) return;
  throw new UpstreamFailureError({
    kind: 'retryable',
    status: 502,
    message: `The upstream provider sent a stream event larger than ${maxSseEventChars / (1024 * 1024)} MiB.`,
    vendorCode: 'sse_event_too_large',
  });
}

/** Complete lines, and the unfinished rest. A trailing `\r` stays in the rest: the next byte may be its `\n`. */
function splitLines(buffer: string): { lines: string[]; rest: string } {
  const lines: string[] = [];
  const lineEnd = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = lineEnd.exec(buffer); match !== null; match = lineEnd.exec(buffer)) {
    if (match[0] === '\r' && match.index === buffer.length - 1) break;
    lines.push(buffer.slice(start, match.index));
    start = match.index + match[0].length;
  }
  return { lines, rest: buffer.slice(start) };
}

function applyField(pending: PendingEvent, line: string): void {
  if (line.startsWith(':')) return;
  const colon = line.indexOf(':');
  const field = colon === -1 ? line : line.slice(0, colon);
  const rawValue = colon === -1 ? '' : line.slice(colon + 1);
  const value = rawValue.startsWith(' ') ? rawValue.slice(1) : rawValue;
  if (field === 'event') pending.name = value;
  else if (field === 'data') {
    pending.dataLines.push(value);
    pending.dataChars += value.length + 1;
  }
}

function dispatch(pending: PendingEvent): SseEvent | 'done' | undefined {
  if (pending.dataLines.length === 0) return undefined;
  const data = pending.dataLines.join('\n');
  if (data.trim() === '') return undefined;
  if (data === '[DONE]') return 'done';
  return { event: pending.name === '' ? undefined : pending.name, data: parseData(data), text: data };
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new UpstreamFailureError({
      kind: 'retryable',
      status: 502,
      message: 'The upstream provider sent a malformed stream event.',
      vendorCode: 'malformed_sse_data',
    });
  }
}
