import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { gatewayRouteHeader } from './gateway-route-header.ts';
import { createSseResponse, type SseResponse } from './sse-response.ts';

/** A Fastify reply that may turn into a server-sent event stream, and notices when the client leaves. */
export type EventStreamReply = {
  /** Built when first read: a call answered in one JSON body never reads it (nor pays for its timer and closures). */
  readonly stream: SseResponse;
  /** Whether the stream's headers went out (false while `stream` was never read). */
  readonly isStarted: boolean;
  /** Aborted when the client closes the connection before the answer is complete. */
  signal: AbortSignal;
  /** Takes the raw socket from Fastify and sends the stream's headers: the reply's own plus `headers`. Idempotent. */
  open: (headers: Record<string, string>) => void;
  /**
   * Opens the stream (if not yet open) once the route that answers is known, and shows it to operator keys
   * (docs/routing.md): in `x-gateway-route`, or, when the headers already went out for keep-alives before the route
   * was known, in one SSE comment line `: gateway-route <id>` before the first data event. Idempotent.
   */
  openWithRoute: (caller: { isOperator: boolean }, routeId: string) => void;
  /**
   * Opens the stream (without extra headers) once `keepAliveIntervalMs` pass without `open`, so keep-alives flow while
   * the upstream is silent before its first chunk. Returns the function that cancels the pending opening.
   */
  openWhenSilent: () => () => void;
};

export function createEventStreamReply(reply: FastifyReply, keepAliveIntervalMs: number): EventStreamReply {
  return createEventStreamResponse(reply.raw, {
    keepAliveIntervalMs,
    takeOver: () => {
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
    },
  });
}

/**
 * The same on node's own response. `takeOver` runs once before the stream's headers go out: a Fastify reply hands
 * its socket and headers over there; a route served without Fastify (`hot-routes.ts`) has nothing to hand over.
 */
export function createEventStreamResponse(
  response: ServerResponse,
  input: { keepAliveIntervalMs: number; takeOver: () => void },
): EventStreamReply {
  const { keepAliveIntervalMs } = input;
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort(new Error('The client closed the connection.'));
  });
  let built: SseResponse | undefined;
  const stream = () => (built ??= createSseResponse({ response, keepAliveIntervalMs }));
  let isRouteShown = false;
  const open = (headers: Record<string, string>) => {
    if (built?.isStarted === true) return;
    input.takeOver();
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    stream().start();
  };
  return {
    get stream() {
      return stream();
    },
    get isStarted() {
      return built?.isStarted === true;
    },
    signal: controller.signal,
    open,
    openWithRoute: (caller, routeId) => {
      if (isRouteShown) return;
      isRouteShown = true;
      if (built?.isStarted !== true) open(gatewayRouteHeader(caller, routeId));
      else if (caller.isOperator) built.writeComment(`gateway-route ${routeId}`);
    },
    openWhenSilent: () => {
      const timer = setTimeout(() => {
        if (!controller.signal.aborted) open({});
      }, keepAliveIntervalMs);
      return () => clearTimeout(timer);
    },
  };
}
