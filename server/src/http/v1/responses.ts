import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors/not-found-error.ts';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import { authenticate, type AuthenticateDeps, type Caller } from '../../pipeline/authenticate.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import type { TakeCallSlotDeps } from '../../pipeline/take-call-slot.ts';
import type { ResponseObject } from '../../responses/response-object.ts';
import type { ResponseSink } from '../../responses/response-sink.ts';
import { runResponse, type ResponseDeps } from '../../responses/run-response.ts';
import { createEventStreamResponse } from '../create-event-stream-reply.ts';
import { answerHotCall, readHotCall, registerHotEntry } from '../answer-hot-call.ts';
import type { HotExchange, HotRouteHandler, HotRoutes } from '../hot-routes.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';
import { endFailedHotCall } from './answer-failed-call.ts';
import type { SseResponse } from '../sse-response.ts';

export type ResponsesRouteDeps = AuthenticateDeps &
  ResponseDeps &
  TakeCallSlotDeps & {
    rateLimiter: RateLimiter;
    keepAliveIntervalMs: number;
  };

/**
 * `POST /v1/responses`: the OpenAI Responses API over every vendor, with web search by the gateway. Stateless, so
 * `GET /v1/responses/{id}` always answers 404 in the OpenAI error shape.
 */
export function registerResponsesRoutes(
  app: FastifyInstance,
  deps: ResponsesRouteDeps & { bodyLimitBytes: number },
  hotRoutes: Pick<HotRoutes, 'serve'>,
): void {
  const handler: HotRouteHandler = (exchange) => answerHotCall(exchange, () => serveResponse(deps, exchange));
  hotRoutes.serve('/v1/responses', handler);
  registerHotEntry(app, '/v1/responses', handler);

  app.get<{ Params: { id: string } }>('/v1/responses/:id', async (request) => {
    await authenticate(deps, readAuthHeaders(request));
    throw new NotFoundError(
      `No response found with id '${request.params.id}'. This gateway is stateless: it never stores responses, so none can be retrieved.`,
      { param: 'response_id' },
    );
  });
}

/**
 * `POST /v1/responses` itself, on node's own request and response (`hot-routes.ts`); resolves to a Response object to
 * send as JSON, or undefined once the stream (or the connection) ended.
 */
async function serveResponse(
  deps: ResponsesRouteDeps & { bodyLimitBytes: number },
  exchange: HotExchange,
): Promise<ResponseObject | undefined> {
  const { requestId } = exchange;
  const { body, caller, setHeaders } = await readHotCall(deps, exchange);
  await using admission = admitCall(deps, { caller, requestId, setHeaders });
  const http = createHttpResponseSink({ exchange, setHeaders, caller, keepAliveIntervalMs: deps.keepAliveIntervalMs });
  try {
    await runResponse(deps, { caller, body, requestId, sink: http.sink, admission });
  } catch (failure) {
    // runResponse answers in-stream itself; after the stream began, only a failed settlement reaches here.
    const { signal } = http.sink;
    return endFailedHotCall(exchange, { admission, failure, signal, stream: http.stream, endStream: http.stream.end });
  }
  return http.stream.isStarted ? undefined : http.response();
}

/**
 * The ResponseSink over node's response: JSON for a Response object, named server-sent events for a stream; the route
 * that served the answer goes to operator keys in `x-gateway-route` (a header, so the route of the first round when
 * the stream opened then).
 */
function createHttpResponseSink(input: {
  exchange: HotExchange;
  setHeaders: (headers: Readonly<Record<string, string>>) => void;
  caller: Caller;
  keepAliveIntervalMs: number;
}): { sink: ResponseSink; stream: SseResponse; response: () => ResponseObject | undefined } {
  const { exchange, setHeaders, caller } = input;
  const events = createEventStreamResponse(exchange.response, {
    keepAliveIntervalMs: input.keepAliveIntervalMs,
    takeOver: () => undefined,
  });
  const { stream } = events;
  let response: ResponseObject | undefined;
  const sink: ResponseSink = {
    signal: events.signal,
    setHeaders,
    sendResponse: (value, origin) => {
      if (origin.routeId !== undefined) setHeaders(gatewayRouteHeader(caller, origin.routeId));
      response = value;
    },
    awaitStream: events.openWhenSilent,
    sendEvent: (event, origin) => {
      if (origin.routeId === undefined) events.open({});
      else events.openWithRoute(caller, origin.routeId);
      if (event.type === 'error') exchange.log.warn({ code: event.code }, 'response stream ended with an error');
      // The Responses stream names each event (`event: <type>`) before its data line (docs/reference/openai.md §Responses).
      return stream.writeEvent(event.type, JSON.stringify(event));
    },
    waitForDrain: stream.waitForDrain,
    get isStreamOpen() {
      return stream.isStarted;
    },
    endStream: () => stream.end(),
  };
  return { sink, stream, response: () => response };
}
