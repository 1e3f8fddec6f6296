import type { ServerResponse } from 'node:http';

/**
 * Server-sent events on a raw Node response: `data:` events, `: keep-alive` comments while nothing else is written
 * (so CDNs and proxies keep a silent stream open), and the `[DONE]` terminator. Writes are passed on at once, and
 * each write says whether the socket's buffer is below its high-water mark: a caller relaying a fast upstream to a
 * slow client stops pulling from the upstream until `waitForDrain()` resolves, so memory per stream stays bounded
 * and TCP flow control reaches the upstream.
 */
export type SseResponse = {
  start: () => void;
  /** False when the socket's buffer is full: wait for `waitForDrain()` before writing more. */
  writeData: (json: string) => boolean;
  /** A named event (`event:` line), as Anthropic's Messages stream uses. */
  writeEvent: (name: string, json: string) => boolean;
  /** A comment line (`: <text>`), which SSE clients skip; `text` is one line. */
  writeComment: (text: string) => boolean;
  writeDone: () => void;
  /** Resolves once the socket's buffer has drained, or at once when it is not full or the client has gone. */
  waitForDrain: () => Promise<void>;
  end: () => void;
  readonly isStarted: boolean;
};

export function createSseResponse(input: { response: ServerResponse; keepAliveIntervalMs: number }): SseResponse {
  const { response } = input;
  let isStarted = false;
  let timer: NodeJS.Timeout | undefined;
  const isGone = () => response.writableEnded || response.destroyed;
  const write = (text: string): boolean => {
    if (isGone()) return true;
    const isBelowHighWaterMark = response.write(text);
    timer?.refresh();
    return isBelowHighWaterMark;
  };
  const writeKeepAlive = () => {
    // A client that is not reading needs no keep-alive, and the comment would only grow the buffer.
    if (!response.writableNeedDrain) write(': keep-alive\n\n');
  };
  return {
    get isStarted() {
      return isStarted;
    },
    start: () => {
      if (isStarted) return;
      isStarted = true;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      response.flushHeaders();
      timer = setInterval(writeKeepAlive, input.keepAliveIntervalMs);
      timer.unref();
    },
    writeData: (json) => write(`data: ${json}\n\n`),
    writeEvent: (name, json) => write(`event: ${name}\ndata: ${json}\n\n`),
    writeComment: (text) => write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`),
    writeDone: () => {
      write('data: [DONE]\n\n');
    },
    waitForDrain: () => waitForDrain(response, isGone),
    end: () => {
      clearInterval(timer);
      if (!response.writableEnded) response.end();
    },
  };
}

function waitForDrain(response: ServerResponse, isGone: () => boolean): Promise<void> {
  if (!response.writableNeedDrain || isGone()) return Promise.resolve();
  return new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle);
      response.off('close', settle);
      resolve();
    };
    response.on('drain', settle);
    response.on('close', settle);
  });
}
