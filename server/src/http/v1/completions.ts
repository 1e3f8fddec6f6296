import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import {
  completionRequestSchema,
  type CompletionRequest,
  type TextCompletion,
} from '../../openai-api/completion-request.ts';
import { convertCompletionRequest } from '../../openai-api/convert-completion-request.ts';
import {
  convertToTextCompletion,
  createTextCompletionStream,
  type TextCompletionIdentity,
} from '../../openai-api/convert-to-text-completion.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { authenticate, type Caller } from '../../pipeline/authenticate.ts';
import type { ChatSink } from '../../pipeline/chat-sink.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import { runChatCompletion } from '../../pipeline/run-chat-completion.ts';
import { createEventStreamReply } from '../create-event-stream-reply.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';
import type { SseResponse } from '../sse-response.ts';
import { toErrorBody } from '../write-error.ts';
import { answerFailedCall } from './answer-failed-call.ts';
import type { ChatCompletionsRouteDeps } from './chat-completions.ts';

/**
 * `POST /v1/completions`: the legacy Completions API on every text model. The request becomes a chat request and runs
 * through the chat pipeline (same hold, routes, settlement and usage record, endpoint `completions`); the answer is
 * translated back to `text_completion` objects, streamed or not (docs/api.md).
 */
export function registerCompletionRoutes(app: FastifyInstance, deps: ChatCompletionsRouteDeps): void {
  app.post('/v1/completions', async (request, reply) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    await using admission = admitCall(deps, {
      caller,
      requestId: request.id,
      setHeaders: (headers) => void reply.headers(headers),
    });
    let completionRequest: CompletionRequest;
    let chatRequest: ChatRequest;
    try {
      completionRequest = parseWireRequest(completionRequestSchema, request.body);
      chatRequest = convertCompletionRequest(completionRequest);
    } catch (error) {
      throw await admission.refusalOr(error);
    }
    const prompt = chatRequest.messages[0]?.content;
    const identity: TextCompletionIdentity = {
      id: `cmpl-${request.id.replace(/^req_/, '')}`,
      echoedPrompt: completionRequest.echo === true && typeof prompt === 'string' ? prompt : undefined,
      isUsageRequested: completionRequest.stream_options?.include_usage === true,
    };
    const sink = createHttpCompletionSink({
      request,
      reply,
      caller,
      identity,
      keepAliveIntervalMs: deps.keepAliveIntervalMs,
    });
    try {
      await runChatCompletion(deps, {
        caller,
        body: chatRequest,
        requestId: request.id,
        sink: sink.sink,
        endpoint: 'completions',
        ...(typeof completionRequest.suffix === 'string' ? { suffix: completionRequest.suffix } : {}),
        admission,
      });
    } catch (failure) {
      const error = await admission.refusalOr(failure);
      const { signal, sendStreamError } = sink.sink;
      return answerFailedCall({ request, reply, error, signal, stream: sink.stream, endStream: sendStreamError });
    }
    return reply.sent ? reply : sink.completion();
  });
}

/** The ChatSink over a Fastify reply that answers in the legacy shape: JSON, or `text_completion` chunks as SSE. */
function createHttpCompletionSink(input: {
  request: FastifyRequest;
  reply: FastifyReply;
  caller: Caller;
  identity: TextCompletionIdentity;
  keepAliveIntervalMs: number;
}): { sink: ChatSink; stream: SseResponse; completion: () => TextCompletion | undefined } {
  const { request, reply } = input;
  const events = createEventStreamReply(reply, input.keepAliveIntervalMs);
  const { stream } = events;
  const converter = createTextCompletionStream(input.identity);
  let completion: TextCompletion | undefined;
  const sink: ChatSink = {
    signal: events.signal,
    setHeaders: (headers) => void reply.headers(headers),
    sendCompletion: (value, origin) => {
      reply.headers(gatewayRouteHeader(input.caller, origin.routeId));
      completion = convertToTextCompletion(value, input.identity);
    },
    awaitStream: events.openWhenSilent,
    startStream: (origin) => events.openWithRoute(input.caller, origin.routeId),
    sendChunk: (chunk) =>
      converter
        .convertChunk(chunk)
        .reduce((hasRoom, converted) => stream.writeData(JSON.stringify(converted)) && hasRoom, true),
    waitForDrain: stream.waitForDrain,
    sendStreamError: (error) => {
      request.log.warn({ code: error.code, status: error.status }, 'completion stream ended with an error');
      stream.writeData(JSON.stringify(toErrorBody(error)));
      stream.end();
    },
    endStream: () => {
      stream.writeDone();
      stream.end();
    },
  };
  return { sink, stream, completion: () => completion };
}
