import type { Readable } from 'node:stream';
import { classifyTransportError } from './upstream-transport-error.ts';
import type { MapTransportError } from './request-streaming.ts';
import type { WholeReadInput } from './whole-answer.ts';

/**
 * An upstream body whose read errors arrive converted: the caller's abort reason unchanged when its signal aborted,
 * else the classified transport error mapped to the caller's own. Iterating it reads the body as it arrives (a
 * stream); `readWhole` reads a whole answer through the stream's events, without the two async iterators (undici's
 * and the guard's) and the promise per chunk that iterating costs.
 */
export class GuardedBody implements AsyncIterable<Uint8Array> {
  readonly #stream: Readable;
  readonly #signal: AbortSignal;
  readonly #mapError: MapTransportError;

  constructor(input: { stream: Readable; signal: AbortSignal; mapError: MapTransportError }) {
    this.#stream = input.stream;
    this.#signal = input.signal;
    this.#mapError = input.mapError;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of this.#stream) yield chunk as Uint8Array;
    } catch (error) {
      throw convertTransportFailure(error, this.#signal, this.#mapError);
    }
  }

  /**
   * The whole body's bytes, read up to `maxBytes`: past it, `truncate` keeps the first `maxBytes` and `fail` rejects
   * with `tooLarge()`; either way the rest is dropped with the stream (and its socket), as leaving the iteration
   * early does.
   */
  readWhole(input: WholeReadInput): Promise<Buffer> {
    const stream = this.#stream;
    const convert = (error: unknown) => convertTransportFailure(error, this.#signal, this.#mapError);
    // A body that failed or closed before this read began emits nothing more: answer from its state.
    if (stream.errored !== null) return Promise.reject(convert(stream.errored));
    if (stream.destroyed) return Promise.reject(convert(createPrematureCloseError()));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let byteCount = 0;
      let isSettled = false;
      const settle = (error: unknown, isCut: boolean) => {
        if (isSettled) return;
        isSettled = true;
        stream.off('data', onData).off('end', onEnd).off('close', onClose);
        if (isCut) stream.destroy();
        if (error !== undefined) reject(error);
        else resolve(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks));
      };
      const onData = (chunk: Buffer) => {
        const room = input.maxBytes - byteCount;
        byteCount += chunk.byteLength;
        if (byteCount > input.maxBytes && input.overflow === 'fail') return settle(input.tooLarge(), true);
        chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
        if (byteCount >= input.maxBytes && input.overflow === 'truncate') settle(undefined, true);
      };
      const onEnd = () => settle(undefined, false);
      // After 'end' this is a no-op; before it, the body was cut off without an error of its own.
      const onClose = () => settle(convert(stream.errored ?? createPrematureCloseError()), false);
      // Left attached once settled: an error the stream emits later must not go unhandled.
      const onError = (error: unknown) => settle(convert(error), false);
      stream.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onError);
    });
  }
}

function createPrematureCloseError(): Error {
  return Object.assign(new Error('The upstream body closed before its end.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** When `signal` aborted (the client left), its reason unchanged; otherwise the classified failure, mapped. */
export function convertTransportFailure(error: unknown, signal: AbortSignal, mapError: MapTransportError): unknown {
  if (signal.aborted) return signal.reason ?? error;
  return mapError(classifyTransportError(error));
}
