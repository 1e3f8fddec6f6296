import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors/not-found-error.ts';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import { authenticate, type AuthenticateDeps, type Caller } from '../../pipeline/authenticate.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import type { TakeCallSlotDeps } from '../../pipeline/take-call-slot.ts';
import type { ResponseObject } from '../../responses/response-object.ts';
import type { ResponseSink } from '../../responses/response-sink.ts';
import { runResponse, type ResponseDeps } from '../../responses/run-response.ts';
import { createEventStreamReply } from '../create-event-stream-reply.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';
import { answerFailedCall } from './answer-failed-call.ts';
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
export function registerResponsesRoutes(app: FastifyInstance, deps: ResponsesRouteDeps): void {
  app.post('/v1/responses', async (request, reply) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    await using admission = admitCall(deps, {
      caller,
      requestId: request.id,
      setHeaders: (headers) => void reply.headers(headers),
    });
    const http = createHttpResponseSink({ request, reply, caller, keepAliveIntervalMs: deps.keepAliveIntervalMs });
    try {
      await runResponse(deps, { caller, body: request.body, requestId: request.id, sink: http.sink, admission });
    } catch (failure) {
      const error = await admission.refusalOr(failure);
      // runResponse answers in-stream itself; after the stream began, only a failed settlement reaches here.
      const { signal } = http.sink;
      return answerFailedCall({ request, reply, error, signal, stream: http.stream, endStream: http.stream.end });
    }
    return reply.sent ? reply : http.response();
  });

  app.get<{ Params: { id: string } }>('/v1/responses/:id', async (request) => {
    await authenticate(deps, readAuthHeaders(request));
    throw new NotFoundError(
      `No response found with id '${request.params.id}'. This gateway is stateless: it never stores responses, so none can be retrieved.`,
      { param: 'response_id' },
    );
  });
}

/**
 * The ResponseSink over a Fastify reply: JSON for a Response object, named server-sent events for a stream; the route
 * that served the answer goes to operator keys in `x-gateway-route` (a header, so the route of the first round when
 * the stream opened then).
 */
function createHttpResponseSink(input: {
  request: FastifyRequest;
  reply: FastifyReply;
  caller: Caller;
  keepAliveIntervalMs: number;
}): { sink: ResponseSink; stream: SseResponse; response: () => ResponseObject | undefined } {
  const { request, reply, caller } = input;
  const events = createEventStreamReply(reply, input.keepAliveIntervalMs);
  const { stream } = events;
  let response: ResponseObject | undefined;
  const sink: ResponseSink = {
    signal: events.signal,
    setHeaders: (headers) => void reply.headers(headers),
    sendResponse: (value, origin) => {
      if (origin.routeId !== undefined) reply.headers(gatewayRouteHeader(caller, origin.routeId));
      response = value;
    },
    awaitStream: events.openWhenSilent,
    sendEvent: (event, origin) => {
      if (origin.routeId === undefined) events.open({});
      else events.openWithRoute(caller, origin.routeId);
      if (event.type === 'error') request.log.warn({ code: event.code }, 'response stream ended with an error');
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
