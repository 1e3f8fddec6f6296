import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import type { ChatChunk, ChatCompletion } from '../../openai-api/chat-completion.ts';
import { authenticate, type AuthenticateDeps, type Caller } from '../../pipeline/authenticate.ts';
import type { ChatSink } from '../../pipeline/chat-sink.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import type { TakeCallSlotDeps } from '../../pipeline/take-call-slot.ts';
import { runChatCompletion, type ChatCompletionDeps } from '../../pipeline/run-chat-completion.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';
import { answerFailedCall } from './answer-failed-call.ts';
import { createEventStreamReply, type EventStreamReply } from '../create-event-stream-reply.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import { toErrorBody } from '../write-error.ts';

export type ChatCompletionsRouteDeps = AuthenticateDeps &
  ChatCompletionDeps &
  TakeCallSlotDeps & {
    rateLimiter: RateLimiter;
    keepAliveIntervalMs: number;
  };

/** `POST /v1/chat/completions`: the OpenAI Chat Completions API over every vendor, streamed or not. */
export function registerChatCompletionRoutes(app: FastifyInstance, deps: ChatCompletionsRouteDeps): void {
  app.post('/v1/chat/completions', async (request, reply) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    await using admission = admitCall(deps, {
      caller,
      requestId: request.id,
      setHeaders: (headers) => void reply.headers(headers),
    });
    const sink = createHttpChatSink({ request, reply, caller, keepAliveIntervalMs: deps.keepAliveIntervalMs });
    try {
      await runChatCompletion(deps, { caller, body: request.body, requestId: request.id, sink: sink.sink, admission });
    } catch (failure) {
      const error = await admission.refusalOr(failure);
      const { signal, sendStreamError } = sink.sink;
      return answerFailedCall({ request, reply, error, signal, stream: sink.events, endStream: sendStreamError });
    }
    return reply.sent ? reply : sink.completion();
  });
}

/**
 * The ChatSink over a Fastify reply: JSON for a completion, server-sent events (on the raw socket) for a stream. The
 * event stream is built only when a stream starts (`events.stream` is read lazily), not for every call.
 */
function createHttpChatSink(input: {
  request: FastifyRequest;
  reply: FastifyReply;
  caller: Caller;
  keepAliveIntervalMs: number;
}): { sink: ChatSink; events: EventStreamReply; completion: () => ChatCompletion | string | undefined } {
  const { request, reply } = input;
  const events = createEventStreamReply(reply, input.keepAliveIntervalMs);
  let completion: ChatCompletion | string | undefined;
  const sink: ChatSink = {
    signal: events.signal,
    setHeaders: (headers) => void reply.headers(headers),
    sendCompletion: (value, origin) => {
      reply.headers(gatewayRouteHeader(input.caller, origin.routeId));
      completion = value;
    },
    sendCompletionJson: (json, origin) => {
      reply.headers(gatewayRouteHeader(input.caller, origin.routeId));
      reply.type('application/json; charset=utf-8');
      completion = json;
    },
    awaitStream: events.openWhenSilent,
    startStream: (origin) => events.openWithRoute(input.caller, origin.routeId),
    sendChunk: (chunk: ChatChunk) => events.stream.writeData(JSON.stringify(chunk)),
    sendChunkJson: (json) => events.stream.writeData(json),
    waitForDrain: () => events.stream.waitForDrain(),
    sendStreamError: (error) => {
      request.log.warn({ code: error.code, status: error.status }, 'stream ended with an error');
      events.stream.writeData(JSON.stringify(toErrorBody(error)));
      events.stream.end();
    },
    endStream: () => {
      events.stream.writeDone();
      events.stream.end();
    },
  };
  return { sink, events, completion: () => completion };
}
