import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { flattenHeaders } from './flatten-headers.ts';
import { convertTransportFailure } from './guarded-body.ts';
import type { BodyOverflow } from './read-capped-body.ts';
import type { MapTransportError } from './request-streaming.ts';

/** What `readWhole` takes: the cap, what passing it does, and the error a `fail` past the cap rejects with. */
export type WholeReadInput = { maxBytes: number; overflow: BodyOverflow; tooLarge: () => unknown };

/** A body that can only be read whole (`GuardedBody`, `WholeAnswer`); `readCappedText` and its kin take either. */
export type WholeReadableBody = { readWhole(input: WholeReadInput): Promise<Buffer> };

type PendingRead = WholeReadInput & { resolve: (bytes: Buffer) => void; reject: (error: unknown) => void };

/** Before the caller starts reading, the socket is paused past this, as a `Readable`'s high-water mark would. */
const unreadBytesBeforePause = 64 * 1024;

/**
 * undici's dispatch handler for one whole (non-streamed) answer, which is also the reply and its body: the chunks go
 * straight into an array, with no `Readable` (and its ticks) nor undici's own request handler between. `headers`
 * resolves the reply at the status line; `readWhole` then gives the bytes up to a cap, as `GuardedBody.readWhole`
 * does. Errors arrive converted as `requestStreaming`'s do: the caller's abort reason unchanged, else the classified
 * transport failure mapped to the caller's own error.
 */
export class WholeAnswer implements Dispatcher.DispatchHandler, EventListenerObject, WholeReadableBody {
  status = 0;
  readonly #signal: AbortSignal;
  readonly #mapError: MapTransportError;
  readonly #onHeaders: { resolve: (reply: WholeAnswer) => void; reject: (error: unknown) => void };
  #controller: Dispatcher.DispatchController | undefined;
  #rawHeaders: IncomingHttpHeaders | undefined;
  #headers: Readonly<Record<string, string>> | undefined;
  #chunks: Buffer[] = [];
  #byteCount = 0;
  #isEnded = false;
  #error: unknown = undefined;
  #read: PendingRead | undefined;
  #isSettled = false;

  constructor(input: {
    signal: AbortSignal;
    mapError: MapTransportError;
    resolve: (reply: WholeAnswer) => void;
    reject: (error: unknown) => void;
  }) {
    this.#signal = input.signal;
    this.#mapError = input.mapError;
    this.#onHeaders = { resolve: input.resolve, reject: input.reject };
    input.signal.addEventListener('abort', this);
  }

  /** Lower-case names; repeated headers joined with ", ". Flattened only when read (failures, image clients). */
  get headers(): Readonly<Record<string, string>> {
    this.#headers ??= flattenHeaders(this.#rawHeaders ?? {});
    return this.#headers;
  }

  get body(): WholeAnswer {
    return this;
  }

  /** The caller's signal aborted: the call is cut, and its reason is what the caller receives. */
  handleEvent(): void {
    this.#controller?.abort(this.#signal.reason as Error);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#signal.aborted) controller.abort(this.#signal.reason as Error);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // An informational answer (100 Continue) comes before the real one.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.#rawHeaders = headers;
    this.#onHeaders.resolve(this);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#isSettled) return;
    if (this.#read === undefined) {
      this.#chunks.push(chunk);
      this.#byteCount += chunk.byteLength;
      if (this.#byteCount > unreadBytesBeforePause) controller.pause();
      return;
    }
    this.#accept(chunk, this.#read);
  }

  onResponseEnd(): void {
    this.#isEnded = true;
    this.#signal.removeEventListener('abort', this);
    if (this.#read !== undefined) this.#settle(this.#read, undefined);
  }

  /** May come without a controller: undici reports a dispatch it refused at once this way. */
  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#signal.removeEventListener('abort', this);
    const converted = convertTransportFailure(error, this.#signal, this.#mapError);
    if (this.status === 0) return this.#onHeaders.reject(converted);
    this.#error = converted;
    if (this.#read !== undefined) this.#settle(this.#read, converted);
  }

  /**
   * The whole body's bytes, read up to `maxBytes`: past it, `truncate` keeps the first `maxBytes` and `fail` rejects
   * with `tooLarge()`; either way the rest is dropped and the connection closed, so its socket is freed.
   */
  readWhole(input: WholeReadInput): Promise<Buffer> {
    if (this.#read !== undefined) return Promise.reject(new Error('An upstream body can be read only once.'));
    return new Promise((resolve, reject) => {
      const read = { ...input, resolve, reject };
      this.#read = read;
      const unread = this.#chunks;
      this.#chunks = [];
      this.#byteCount = 0;
      for (const chunk of unread) {
        if (this.#isSettled) return;
        this.#accept(chunk, read);
      }
      if (this.#isSettled) return;
      if (this.#error !== undefined) return this.#settle(read, this.#error);
      if (this.#isEnded) return this.#settle(read, undefined);
      this.#controller?.resume();
    });
  }

  #accept(chunk: Buffer, read: PendingRead): void {
    const room = read.maxBytes - this.#byteCount;
    this.#byteCount += chunk.byteLength;
    if (this.#byteCount > read.maxBytes && read.overflow === 'fail') return this.#cut(read, read.tooLarge());
    this.#chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
    if (this.#byteCount >= read.maxBytes && read.overflow === 'truncate') this.#cut(read, undefined);
  }

  /** Reading stops before the end: the rest is not wanted, so the connection is closed rather than drained. */
  #cut(read: PendingRead, error: unknown): void {
    this.#settle(read, error);
    if (!this.#isEnded && this.#error === undefined) {
      this.#controller?.abort(new Error('The upstream body was cut at its size cap.'));
    }
  }

  #settle(read: PendingRead, error: unknown): void {
    if (this.#isSettled) return;
    this.#isSettled = true;
    if (error !== undefined) return read.reject(error);
    const chunks = this.#chunks;
    read.resolve(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks));
  }
}
