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
  const state = newSseParser();
  const events: SseEvent[] = [];
  for await (const bytes of body) {
    const isDone = pushSseBytes(state, bytes, events);
    for (const event of events) yield event;
    events.length = 0;
    if (isDone) return;
  }
  endSse(state, events);
  yield* events;
}

/**
 * The parser works on bytes: a line end is a single byte that never occurs inside a multi-byte UTF-8 character, so
 * each complete line is decoded on its own (no streaming decoder per stream, no joined text to split again), and
 * comment lines (keep-alives) are skipped without being decoded at all. One plain object per stream holds its state.
 */
export type SseParser = {
  /** The unfinished line's pieces (copies: the upstream's buffers are not held) and its length in bytes. */
  restPieces: Buffer[];
  restBytes: number;
  /** The previous piece ended with `\r`: a `\n` starting this one belongs to that line end. */
  skipsLineFeed: boolean;
  isFirstLine: boolean;
  pending: PendingEvent;
};

export function newSseParser(): SseParser {
  const pending = { name: undefined, data: undefined, dataBytes: 0 };
  return { restPieces: [], restBytes: 0, skipsLineFeed: false, isFirstLine: true, pending };
}

/** Adds the events completed by `bytes` to `out`; true once `data: [DONE]` was read (later bytes are not read). */
export function pushSseBytes(state: SseParser, bytes: Uint8Array, out: SseEvent[]): boolean {
  const piece = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  if (state.skipsLineFeed && piece.length > 0) {
    state.skipsLineFeed = false;
    if (piece[0] === lineFeed) start = 1;
  }
  let nextFeed = piece.indexOf(lineFeed, start);
  let nextReturn = piece.indexOf(carriageReturn, start);
  while (nextFeed !== -1 || nextReturn !== -1) {
    const end = nextReturn === -1 || (nextFeed !== -1 && nextFeed < nextReturn) ? nextFeed : nextReturn;
    if (completeLine(state, piece.subarray(start, end), out)) return true;
    checkEventSize(state.pending.dataBytes);
    start = end + 1;
    if (piece[end] === carriageReturn) {
      if (start === piece.length) state.skipsLineFeed = true;
      else if (piece[start] === lineFeed) start += 1;
    }
    if (nextFeed !== -1 && nextFeed < start) nextFeed = piece.indexOf(lineFeed, start);
    if (nextReturn !== -1 && nextReturn < start) nextReturn = piece.indexOf(carriageReturn, start);
  }
  if (start < piece.length) {
    state.restPieces.push(Buffer.from(piece.subarray(start)));
    state.restBytes += piece.length - start;
  }
  checkEventSize(state.pending.dataBytes + state.restBytes);
  return false;
}

/** Adds the event left open when the body ended (some vendors close without a final blank line) to `out`. */
export function endSse(state: SseParser, out: SseEvent[]): void {
  if (state.restBytes > 0) completeLine(state, Buffer.alloc(0), out);
  dispatch(state.pending, out);
}

/** One line, with the unfinished rest it ends: a field, or the blank line that dispatches; true for `[DONE]`. */
function completeLine(state: SseParser, line: Buffer, out: SseEvent[]): boolean {
  const whole = state.restBytes === 0 ? line : Buffer.concat([...state.restPieces, line]);
  if (state.restBytes > 0) {
    state.restPieces = [];
    state.restBytes = 0;
  }
  const text = state.isFirstLine ? withoutByteOrderMark(whole) : whole;
  state.isFirstLine = false;
  if (text.length > 0) {
    applyField(state.pending, text);
    return false;
  }
  return dispatch(state.pending, out);
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
