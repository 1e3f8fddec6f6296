import { convertError } from '../../anthropic-api/convert-error.ts';
import type { Message } from '../../anthropic-api/message-object.ts';
import type { MessagesRequest } from '../../anthropic-api/messages-request.ts';
import { streamFinishedMessage } from '../../anthropic-api/stream-finished-message.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import type { Admission } from '../../pipeline/admit-call.ts';
import type { Caller } from '../../pipeline/authenticate.ts';
import type { MessagesWebSearch } from '../../responses/read-messages-web-search.ts';
import { runMessageSearch } from '../../responses/run-message-search.ts';
import type { ResponseDeps } from '../../responses/run-response.ts';
import { createEventStreamResponse } from '../create-event-stream-reply.ts';
import type { HotExchange } from '../hot-routes.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import { endFailedHotCall } from './answer-failed-call.ts';

/**
 * `POST /v1/messages` with the `web_search` server tool over node's own response (`hot-routes.ts`): the Message as JSON, or, streamed, keep-alive
 * comments while the rounds run and then the finished message as Anthropic's events (docs/messages.md §Web search).
 */
export async function answerMessageSearch(input: {
  deps: ResponseDeps & { keepAliveIntervalMs: number };
  exchange: HotExchange;
  setHeaders: (headers: Readonly<Record<string, string>>) => void;
  caller: Caller;
  messagesRequest: MessagesRequest;
  chatRequest: ChatRequest;
  search: MessagesWebSearch;
  identity: { id: string; model: string };
  admission: Admission;
}): Promise<Message | undefined> {
  const { deps, exchange, caller } = input;
  const events = createEventStreamResponse(exchange.response, {
    keepAliveIntervalMs: deps.keepAliveIntervalMs,
    takeOver: () => undefined,
  });
  const isStreaming = input.messagesRequest.stream === true;
  const stopWaiting = isStreaming ? events.openWhenSilent() : () => undefined;
  let answer: Awaited<ReturnType<typeof runMessageSearch>>;
  try {
    answer = await runMessageSearch(deps, {
      ...input,
      requestId: exchange.requestId,
      signal: events.signal,
      setHeaders: input.setHeaders,
    });
  } catch (failure) {
    return endFailedHotCall(exchange, {
      admission: input.admission,
      failure,
      signal: events.signal,
      stream: events.stream,
      endStream: (gatewayError) => {
        events.stream.writeEvent('error', JSON.stringify(convertError(gatewayError, exchange.requestId)));
        events.stream.end();
      },
    });
  } finally {
    stopWaiting();
  }
  if (answer === undefined) return undefined;
  const { message, routeId } = answer;
  if (!isStreaming) {
    if (routeId !== undefined) input.setHeaders(gatewayRouteHeader(caller, routeId));
    return message;
  }
  if (routeId === undefined) events.open({});
  else events.openWithRoute(caller, routeId);
  for (const event of streamFinishedMessage(message)) events.stream.writeEvent(event.type, JSON.stringify(event));
  events.stream.end();
  return undefined;
}
