import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import type { ChatChunk, ChatCompletion } from '../../openai-api/chat-completion.ts';
import type { AuthenticateDeps, Caller } from '../../pipeline/authenticate.ts';
import type { ChatSink } from '../../pipeline/chat-sink.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import type { TakeCallSlotDeps } from '../../pipeline/take-call-slot.ts';
import { runChatCompletion, type ChatCompletionDeps } from '../../pipeline/run-chat-completion.ts';
import { endFailedHotCall } from './answer-failed-call.ts';
import { createEventStreamResponse, type EventStreamReply } from '../create-event-stream-reply.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import { toErrorBody } from '../write-error.ts';
import { answerHotCall, readHotCall, registerHotEntry } from '../answer-hot-call.ts';
import type { HotExchange, HotRouteHandler, HotRoutes } from '../hot-routes.ts';

export type ChatCompletionsRouteDeps = AuthenticateDeps &
  ChatCompletionDeps &
  TakeCallSlotDeps & {
    rateLimiter: RateLimiter;
    keepAliveIntervalMs: number;
  };

/** An answer in one body: a completion, or one already serialised. */
type WholeAnswer = ChatCompletion | string;

/**
 * `POST /v1/chat/completions`: the OpenAI Chat Completions API over every vendor, streamed or not, served on node's own
 * request and response: the server's listener sends it there past Fastify (`hot-routes.ts`), and the route registered
 * in Fastify hands what reaches it to the same handler (`registerHotEntry`).
 */
export function registerChatCompletionRoutes(
  app: FastifyInstance,
  deps: ChatCompletionsRouteDeps & { bodyLimitBytes: number },
  hotRoutes: Pick<HotRoutes, 'serve'>,
): void {
  const handler: HotRouteHandler = (exchange) => answerHotCall(exchange, () => serveChatCompletion(deps, exchange));
  hotRoutes.serve('/v1/chat/completions', handler);
  registerHotEntry(app, '/v1/chat/completions', handler);
}

/** The call itself; resolves to an answer in one body, or undefined once the stream (or the connection) ended. */
async function serveChatCompletion(
  deps: ChatCompletionsRouteDeps & { bodyLimitBytes: number },
  exchange: HotExchange,
): Promise<WholeAnswer | undefined> {
  const { requestId } = exchange;
  const { body, caller, setHeaders } = await readHotCall(deps, exchange);
  // The answer is written after the admission's slot is given back, as when Fastify sent a handler's return value.
  await using admission = admitCall(deps, { caller, requestId, setHeaders });
  const sink = createHttpChatSink({ exchange, caller, setHeaders, keepAliveIntervalMs: deps.keepAliveIntervalMs });
  try {
    await runChatCompletion(deps, { caller, body, requestId, sink: sink.sink, admission });
  } catch (failure) {
    const { signal, sendStreamError } = sink.sink;
    return endFailedHotCall(exchange, { admission, failure, signal, stream: sink.events, endStream: sendStreamError });
  }
  return sink.events.isStarted ? undefined : sink.completion();
}

/**
 * The ChatSink over node's response: JSON for a completion, server-sent events for a stream. The event stream is
 * built only when a stream starts (`events.stream` is read lazily), not for every call.
 */
function createHttpChatSink(input: {
  exchange: HotExchange;
  caller: Caller;
  setHeaders: (headers: Readonly<Record<string, string>>) => void;
  keepAliveIntervalMs: number;
}): { sink: ChatSink; events: EventStreamReply; completion: () => WholeAnswer | undefined } {
  const { exchange, setHeaders } = input;
  const events = createEventStreamResponse(exchange.response, {
    keepAliveIntervalMs: input.keepAliveIntervalMs,
    takeOver: () => undefined,
  });
  let completion: WholeAnswer | undefined;
  const sink: ChatSink = {
    signal: events.signal,
    setHeaders,
    sendCompletion: (value, origin) => {
      setHeaders(gatewayRouteHeader(input.caller, origin.routeId));
      completion = value;
    },
    sendCompletionJson: (json, origin) => {
      setHeaders(gatewayRouteHeader(input.caller, origin.routeId));
      completion = json;
    },
    awaitStream: events.openWhenSilent,
    startStream: (origin) => events.openWithRoute(input.caller, origin.routeId),
    sendChunk: (chunk: ChatChunk) => events.stream.writeData(JSON.stringify(chunk)),
    sendChunkJson: (json) => events.stream.writeData(json),
    waitForDrain: () => events.stream.waitForDrain(),
    sendStreamError: (error) => {
      exchange.log.warn({ code: error.code, status: error.status }, 'stream ended with an error');
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
