import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { checkBetaHeader } from '../../anthropic-api/check-beta-header.ts';
import { convertChatCompletion } from '../../anthropic-api/convert-chat-completion.ts';
import { createMessageStreamConverter } from '../../anthropic-api/create-message-stream-converter.ts';
import { convertError } from '../../anthropic-api/convert-error.ts';
import { convertMessagesRequest } from '../../anthropic-api/convert-messages-request.ts';
import type { Message, StreamEvent } from '../../anthropic-api/message-object.ts';
import { countTokensRequestSchema, messagesRequestSchema } from '../../anthropic-api/messages-request.ts';
import { readWebSearchTool } from '../../responses/read-messages-web-search.ts';
import type { ResponseDeps } from '../../responses/run-response.ts';
import { answerMessageSearch } from './answer-message-search.ts';
import { NotFoundError } from '../../errors/not-found-error.ts';
import { countInputTokens } from '../../pipeline/count-input-tokens.ts';
import { estimateDeliveredUsage } from '../../billing/estimate-delivered-usage.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { authenticate, type Caller } from '../../pipeline/authenticate.ts';
import type { ChatSink } from '../../pipeline/chat-sink.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import { measureChatRequest } from '../../pipeline/measure-chat-request.ts';
import { runChatCompletion } from '../../pipeline/run-chat-completion.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';
import { endFailedHotCall } from './answer-failed-call.ts';
import { createEventStreamResponse } from '../create-event-stream-reply.ts';
import { answerHotCall, readHotCall, registerHotEntry } from '../answer-hot-call.ts';
import type { HotExchange, HotRouteHandler, HotRoutes } from '../hot-routes.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import type { SseResponse } from '../sse-response.ts';
import { writeError } from '../write-error.ts';
import type { ChatCompletionsRouteDeps } from './chat-completions.ts';

/**
 * `POST /v1/messages`: Anthropic's Messages API over the same catalogue, key and balance as chat completions. The
 * request is translated to a chat request and runs through the chat pipeline; the answer and the errors are
 * translated back to Anthropic's shapes (docs/messages.md).
 */
export function registerMessagesRoutes(
  app: FastifyInstance,
  deps: MessagesDeps,
  hotRoutes: Pick<HotRoutes, 'serve'>,
): void {
  const handler: HotRouteHandler = (exchange) => {
    // Anthropic's SDKs read the request id from `request-id` (the scope's hook below sets it on Fastify's routes).
    exchange.response.setHeader('request-id', exchange.requestId);
    return answerHotCall(exchange, () => serveMessages(deps, exchange));
  };
  hotRoutes.serve('/v1/messages', handler);
  void app.register(async (scope) => {
    // Errors before the first byte (bad JSON and body size included) get Anthropic's error body.
    scope.setErrorHandler((error, request, reply) =>
      writeError(request, reply, error, (gatewayError) => convertError(gatewayError, request.id)),
    );
    // Anthropic's SDKs read the request id from `request-id`.
    scope.addHook('onRequest', async (request, reply) => {
      reply.header('request-id', request.id);
    });
    registerHotEntry(scope, '/v1/messages', handler);
    scope.post('/v1/messages/count_tokens', async (request, reply) => {
      const caller = await authenticate(deps, readAuthHeaders(request));
      checkBetaHeader(request.headers['anthropic-beta']);
      const countRequest = parseWireRequest(countTokensRequestSchema, request.body);
      // No output limit is counted; one above any thinking budget keeps the conversion's checks quiet.
      const chatRequest = convertMessagesRequest({ ...countRequest, max_tokens: countRequest.max_tokens ?? 1_000_000 });
      const controller = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const count = await countInputTokens(deps, { caller, request: chatRequest, signal: controller.signal });
      return { input_tokens: count.inputTokens };
    });
    // Anthropic's clients read Anthropic's error body on every path of its API, unknown ones and wrong methods too.
    // OPTIONS is left to the CORS preflight (`cors.ts`).
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/v1/messages/*',
      handler: async (request) => {
        throw new NotFoundError(`Unknown path: ${request.method} ${request.url.split('?')[0]}`);
      },
    });
    scope.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: '/v1/messages',
      handler: async (request) => {
        throw new NotFoundError(`Unknown path: ${request.method} /v1/messages (send messages with POST).`);
      },
    });
  });
}

type MessagesDeps = ChatCompletionsRouteDeps & Pick<ResponseDeps, 'searchEngine'> & { bodyLimitBytes: number };

/**
 * `POST /v1/messages` itself, on node's own request and response (`hot-routes.ts`); resolves to a Message to send as
 * JSON, or undefined once the stream (or the connection) ended.
 */
async function serveMessages(deps: MessagesDeps, exchange: HotExchange): Promise<Message | undefined> {
  const { incoming, requestId } = exchange;
  const { body, caller, setHeaders } = await readHotCall(deps, exchange);
  await using admission = admitCall(deps, { caller, requestId, setHeaders });
  let read: ReturnType<typeof readMessagesCall>;
  try {
    read = readMessagesCall(incoming.headers, body);
  } catch (error) {
    throw await admission.refusalOr(error);
  }
  const { messagesRequest, chatRequest, search } = read;
  const identity = { id: `msg_${requestId.replace(/^req_/, '')}`, model: messagesRequest.model };
  if (search) {
    const input = { exchange, setHeaders, caller, messagesRequest, chatRequest, search, identity, admission };
    return answerMessageSearch({ deps: { ...deps, nativeSearchProviders: [] }, ...input });
  }
  const sink = createHttpMessageSink({
    exchange,
    setHeaders,
    caller,
    keepAliveIntervalMs: deps.keepAliveIntervalMs,
    stream: createMessageStreamConverter({ ...identity, estimatedInputTokens: estimateInputTokens(chatRequest) }),
    identity,
  });
  try {
    await runChatCompletion(deps, {
      caller,
      body: chatRequest,
      requestId,
      sink: sink.sink,
      isReasoningAdvisory: true,
      endpoint: 'messages',
      admission,
    });
  } catch (failure) {
    const { signal, sendStreamError } = sink.sink;
    return endFailedHotCall(exchange, { admission, failure, signal, stream: sink.stream, endStream: sendStreamError });
  }
  return sink.stream.isStarted ? undefined : sink.message();
}

/** The Messages request, the chat request it becomes and its web search tool, if any; 400 when it is not valid. */
function readMessagesCall(headers: IncomingHttpHeaders, body: unknown) {
  checkBetaHeader(headers['anthropic-beta']);
  const messagesRequest = parseWireRequest(messagesRequestSchema, body);
  const chatRequest = convertMessagesRequest(messagesRequest);
  return { messagesRequest, chatRequest, search: readWebSearchTool(messagesRequest) };
}

/** The ChatSink over node's response: an Anthropic Message as JSON, or Anthropic's named stream events. */
function createHttpMessageSink(input: {
  exchange: HotExchange;
  setHeaders: (headers: Readonly<Record<string, string>>) => void;
  caller: Caller;
  keepAliveIntervalMs: number;
  stream: ReturnType<typeof createMessageStreamConverter>;
  identity: { id: string; model: string };
}): { sink: ChatSink; stream: SseResponse; message: () => Message | undefined } {
  const { exchange, setHeaders } = input;
  const events = createEventStreamResponse(exchange.response, {
    keepAliveIntervalMs: input.keepAliveIntervalMs,
    takeOver: () => undefined,
  });
  const { stream } = events;
  let message: Message | undefined;
  /** False when one of the events found the socket's buffer full. */
  const writeEvents = (streamEvents: readonly StreamEvent[]): boolean => {
    let isBelowHighWaterMark = true;
    for (const event of streamEvents) {
      isBelowHighWaterMark = stream.writeEvent(event.type, JSON.stringify(event)) && isBelowHighWaterMark;
    }
    return isBelowHighWaterMark;
  };
  const sink: ChatSink = {
    signal: events.signal,
    setHeaders,
    sendCompletion: (completion, origin) => {
      setHeaders(gatewayRouteHeader(input.caller, origin.routeId));
      message = convertChatCompletion(completion, input.identity);
    },
    // Keep-alives before `message_start` are SSE comments, which Anthropic's SDKs skip like any SSE parser.
    awaitStream: events.openWhenSilent,
    startStream: (origin) => {
      events.openWithRoute(input.caller, origin.routeId);
      writeEvents(input.stream.start());
    },
    sendChunk: (chunk) => writeEvents(input.stream.convertChunk(chunk)),
    waitForDrain: stream.waitForDrain,
    sendStreamError: (error) => {
      exchange.log.warn({ code: error.code, status: error.status }, 'message stream ended with an error');
      writeEvents([convertError(error, exchange.requestId)]);
      stream.end();
    },
    endStream: () => {
      writeEvents(input.stream.finish());
      stream.end();
    },
  };
  return { sink, stream, message: () => message };
}

/** `message_start` needs input tokens before the vendor counts them: the same size estimate the credit hold uses. */
function estimateInputTokens(request: ChatRequest): number {
  return estimateDeliveredUsage({ ...measureChatRequest(request), deliveredTextBytes: 0 }).inputTokens;
}
