import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import type { SseEvent, StreamEventConverter } from '../provider-adapter.ts';
import { endSse, newSseParser, pushSseBytes, type SseParser } from './parse-sse.ts';

type Reader = {
  body: AsyncIterator<Uint8Array>;
  converter: StreamEventConverter;
  parser: SseParser;
  events: SseEvent[];
  /** Converted chunks not yet pulled, from `head` on. */
  chunks: ChatChunk[];
  head: number;
  /** What broke the stream, thrown once the chunks converted before it have been pulled. */
  failure: { error: unknown } | undefined;
  isEnded: boolean;
};

const endResult: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * A streamed answer read in one loop: each piece of the body is split into events and each event converted as it
 * arrives, with no generator between the body and the relay, so a stream held open keeps one small object instead
 * of the suspended frames of a chain of generators. Chunks go out as the relay pulls them and the body is read only
 * when none are left, so a client that is not reading stops the upstream (TCP flow control). The stream ends at the
 * body's end or at `data: [DONE]` (the body is then let go, as when it breaks); a failure (an upstream error event, a
 * malformed or oversized event, a cut-off stream) is thrown after the chunks of the events before it.
 */
export function readEventStream(
  body: AsyncIterable<Uint8Array>,
  converter: StreamEventConverter,
): AsyncIterator<ChatChunk> {
  const reader: Reader = {
    body: body[Symbol.asyncIterator](),
    converter,
    parser: newSseParser(),
    events: [],
    chunks: [],
    head: 0,
    failure: undefined,
    isEnded: false,
  };
  return {
    next: () => nextChunk(reader),
    return: async () => {
      const wasEnded = reader.isEnded;
      reader.isEnded = true;
      reader.chunks.length = 0;
      reader.head = 0;
      reader.failure = undefined;
      if (!wasEnded) await reader.body.return?.();
      return endResult;
    },
  };
}

async function nextChunk(reader: Reader): Promise<IteratorResult<ChatChunk>> {
  while (reader.head === reader.chunks.length) {
    reader.chunks.length = 0;
    reader.head = 0;
    if (reader.failure !== undefined) {
      const { error } = reader.failure;
      reader.failure = undefined;
      throw error;
    }
    if (reader.isEnded) return endResult;
    await readPiece(reader);
  }
  const value = reader.chunks[reader.head] as ChatChunk;
  reader.head += 1;
  return { done: false, value };
}

async function readPiece(reader: Reader): Promise<void> {
  let piece: IteratorResult<Uint8Array>;
  try {
    piece = await reader.body.next();
  } catch (error) {
    // The body has already let go of its connection.
    reader.failure = { error };
    reader.isEnded = true;
    return;
  }
  const isDone = convertPiece(reader, piece);
  if (!isDone && reader.failure === undefined) return;
  reader.isEnded = true;
  if (!piece.done) await reader.body.return?.().catch(() => undefined);
}

/** Splits and converts one piece (or the end of the body); true when the stream is complete. */
function convertPiece(reader: Reader, piece: IteratorResult<Uint8Array>): boolean {
  let isLast = piece.done === true;
  let parseFailure: { error: unknown } | undefined;
  try {
    if (piece.done) endSse(reader.parser, reader.events);
    else isLast = pushSseBytes(reader.parser, piece.value, reader.events);
  } catch (error) {
    parseFailure = { error };
  }
  try {
    for (const event of reader.events) reader.converter.onEvent(event, reader.chunks);
    if (parseFailure !== undefined) throw parseFailure.error;
    if (isLast) reader.converter.onEnd(reader.chunks);
  } catch (error) {
    reader.failure = { error };
  } finally {
    reader.events.length = 0;
  }
  return isLast;
}
