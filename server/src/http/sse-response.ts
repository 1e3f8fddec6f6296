import type { ServerResponse } from 'node:http';

/**
 * Server-sent events on a raw Node response: `data:` events, `: keep-alive` comments while nothing else is written
 * (so CDNs and proxies keep a silent stream open), and the `[DONE]` terminator. Writes are passed on at once:
 * no buffering beyond the socket.
 */
export type SseResponse = {
  start: () => void;
  writeData: (json: string) => void;
  /** A named event (`event:` line), as Anthropic's Messages stream uses. */
  writeEvent: (name: string, json: string) => void;
  writeDone: () => void;
  end: () => void;
  readonly isStarted: boolean;
};

export function createSseResponse(input: {
  response: ServerResponse;
  headers: Record<string, string>;
  keepAliveIntervalMs: number;
}): SseResponse {
  const { response } = input;
  let isStarted = false;
  let timer: NodeJS.Timeout | undefined;
  const write = (text: string) => {
    if (response.writableEnded || response.destroyed) return;
    response.write(text);
    timer?.refresh();
  };
  return {
    get isStarted() {
      return isStarted;
    },
    start: () => {
      if (isStarted) return;
      isStarted = true;
      response.writeHead(200, {
        ...input.headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      response.flushHeaders();
      timer = setInterval(() => write(': keep-alive\n\n'), input.keepAliveIntervalMs);
      timer.unref();
    },
    writeData: (json) => write(`data: ${json}\n\n`),
    writeEvent: (name, json) => write(`event: ${name}\ndata: ${json}\n\n`),
    writeDone: () => write('data: [DONE]\n\n'),
    end: () => {
      clearInterval(timer);
      if (!response.writableEnded) response.end();
    },
  };
}
