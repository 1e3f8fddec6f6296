import { UpstreamFailureError, type SseEvent } from '../provider-adapter.ts';

/**
 * The largest event accepted, in bytes of its unfinished line plus the data lines it has gathered: far above any
 * real chunk (a whole image as base64 is a few MB), low enough that a faulty upstream that never ends a line or an
 * event cannot grow the gateway's memory without bound.
 */
export const maxSseEventChars = 8 * 1024 * 1024;

const lineFeed = 0x0a;
const carriageReturn = 0x0d;
const colon = 0x3a;
const space = 0x20;
const dataField = Buffer.from('data');
const eventField = Buffer.from('event');

/**
 * Splits an upstream byte stream into server-sent events and parses each `data` as JSON (the WHATWG event-stream
 * rules: `\n`, `\r\n` or `\r` line ends, multi-line `data` joined with `\n`, `:` comment lines ignored). A
 * `data: [DONE]` event ends the stream. Events without data (keep-alives) are skipped. An event still open when
 * the body ends is dispatched: some vendors close without a final blank line. An event over `maxSseEventChars` fails
 * the attempt as an upstream error.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export async function* parseSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const parser = createSseParser();
  const events: SseEvent[] = [];
  for await (const bytes of body) {
    const isDone = parser.push(bytes, events);
    for (const event of events) yield event;
    events.length = 0;
    if (isDone) return;
  }
  parser.end(events);
  yield* events;
}

/**
 * The parser works on bytes: a line end is a single byte that never occurs inside a multi-byte UTF-8 character, so
 * each complete line is decoded on its own (no streaming decoder per stream, no joined text to split again), and
 * comment lines (keep-alives) are skipped without being decoded at all.
 */
type SseParser = {
  /** Adds the events completed by `bytes` to `out`; true once `data: [DONE]` was read (later bytes are not read). */
  push: (bytes: Uint8Array, out: SseEvent[]) => boolean;
  /** Dispatches the event left open when the body ended. */
  end: (out: SseEvent[]) => void;
};

function createSseParser(): SseParser {
  // The unfinished line's pieces (copies: the upstream's buffers are not held) and its length in bytes.
  let restPieces: Buffer[] = [];
  let restBytes = 0;
  // The previous piece ended with `\r`: a `\n` starting this one belongs to that line end.
  let skipsLineFeed = false;
  let isFirstLine = true;
  const pending: PendingEvent = { name: undefined, data: undefined, dataBytes: 0 };
  const completeLine = (line: Buffer, out: SseEvent[]): boolean => {
    const whole = restBytes === 0 ? line : Buffer.concat([...restPieces, line], restBytes + line.length);
    restPieces = [];
    restBytes = 0;
    const text = isFirstLine ? withoutByteOrderMark(whole) : whole;
    isFirstLine = false;
    if (text.length > 0) {
      applyField(pending, text);
      return false;
    }
    return dispatch(pending, out);
  };
  return {
    push: (bytes, out) => {
      const piece = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let start = 0;
      if (skipsLineFeed && piece.length > 0) {
        skipsLineFeed = false;
        if (piece[0] === lineFeed) start = 1;
      }
      let nextFeed = piece.indexOf(lineFeed, start);
      let nextReturn = piece.indexOf(carriageReturn, start);
      while (nextFeed !== -1 || nextReturn !== -1) {
        const end = nextReturn === -1 || (nextFeed !== -1 && nextFeed < nextReturn) ? nextFeed : nextReturn;
        if (completeLine(piece.subarray(start, end), out)) return true;
        checkEventSize(pending.dataBytes);
        start = end + 1;
        if (piece[end] === carriageReturn) {
          if (start === piece.length) skipsLineFeed = true;
          else if (piece[start] === lineFeed) start += 1;
        }
        if (nextFeed !== -1 && nextFeed < start) nextFeed = piece.indexOf(lineFeed, start);
        if (nextReturn !== -1 && nextReturn < start) nextReturn = piece.indexOf(carriageReturn, start);
      }
      if (start < piece.length) {
        restPieces.push(Buffer.from(piece.subarray(start)));
        restBytes += piece.length - start;
      }
      checkEventSize(pending.dataBytes + restBytes);
      return false;
    },
    end: (out) => {
      if (restBytes > 0) completeLine(Buffer.alloc(0), out);
      dispatch(pending, out);
    },
  };
}

type PendingEvent = { name: string | undefined; data: string | undefined; dataBytes: number };

function withoutByteOrderMark(line: Buffer): Buffer {
  return line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf ? line.subarray(3) : line;
}

function checkEventSize(bytes: number): void {
  if (bytes <= maxSseEventChars) return;
  throw new UpstreamFailureError({
    kind: 'retryable',
    status: 502,
    message: `The upstream provider sent a stream event larger than ${maxSseEventChars / (1024 * 1024)} MiB.`,
    vendorCode: 'sse_event_too_large',
  });
}

/** One non-empty line: `data` and `event` are kept, comments and other fields (`id`, `retry`) ignored. */
function applyField(pending: PendingEvent, line: Buffer): void {
  if (line[0] === colon) return;
  const fieldEnd = line.indexOf(colon);
  const nameEnd = fieldEnd === -1 ? line.length : fieldEnd;
  const isData = isField(line, nameEnd, dataField);
  if (!isData && !isField(line, nameEnd, eventField)) return;
  let valueStart = fieldEnd === -1 ? line.length : fieldEnd + 1;
  if (line[valueStart] === space) valueStart += 1;
  const value = line.toString('utf8', valueStart);
  if (!isData) {
    pending.name = value;
    return;
  }
  pending.data = pending.data === undefined ? value : `${pending.data}\n${value}`;
  pending.dataBytes += line.length - valueStart + 1;
}

function isField(line: Buffer, nameEnd: number, name: Buffer): boolean {
  return nameEnd === name.length && line.compare(name, 0, name.length, 0, nameEnd) === 0;
}

/** Ends the pending event at a blank line; true for `data: [DONE]`. */
function dispatch(pending: PendingEvent, out: SseEvent[]): boolean {
  const { name, data } = pending;
  pending.name = undefined;
  pending.data = undefined;
  pending.dataBytes = 0;
  if (data === undefined || data.trim() === '') return false;
  if (data === '[DONE]') return true;
  out.push({ event: name === '' ? undefined : name, data: parseData(data), text: data });
  return false;
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
