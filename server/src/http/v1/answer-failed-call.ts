import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayError } from '../../errors/gateway-error.ts';
import { InternalError } from '../../errors/internal-error.ts';
import { toGatewayError } from '../write-error.ts';
import type { Admission } from '../../pipeline/admit-call.ts';
import type { HotExchange } from '../hot-routes.ts';

/**
 * What a `/v1` route does with an error its call let through (the call's money is already settled or released by
 * then): a client that left before the stream began has nothing to read, so its socket is closed; before the stream
 * began, the error goes on to the error handler (rethrown) and gets the API's error body and status; after, the
 * stream can only end with it, in-stream.
 */
export function answerFailedCall(input: {
  request: FastifyRequest;
  reply: FastifyReply;
  error: unknown;
  signal: AbortSignal;
  /** The call's event stream (or its `EventStreamReply`, which builds none for an answer that never streamed). */
  stream: { readonly isStarted: boolean };
  endStream: (error: GatewayError) => void;
}): FastifyReply {
  const { reply } = input;
  endFailedCall({
    ...input,
    log: input.request.log,
    closeConnection: () => {
      reply.hijack();
      reply.raw.destroy();
    },
  });
  return reply;
}

/** `answerFailedCall` for a route served on node's own response (`hot-routes.ts`): the same three ends. */
export function endFailedCall(input: {
  log: Pick<FastifyBaseLogger, 'error'>;
  error: unknown;
  signal: AbortSignal;
  stream: { readonly isStarted: boolean };
  endStream: (error: GatewayError) => void;
  closeConnection: () => void;
}): void {
  const { error, stream } = input;
  if (input.signal.aborted && !stream.isStarted) {
    input.closeConnection();
    return;
  }
  if (!stream.isStarted) throw error;
  const gatewayError = toGatewayError(error);
  if (gatewayError instanceof InternalError) input.log.error({ err: error }, 'stream failed after start');
  input.endStream(gatewayError);
}

/**
 * `endFailedCall` for a hot route's call (`hot-routes.ts`): the admission's refusal, if it has one, wins over the
 * failure, and a client that left before the stream began gets its connection closed. Resolves to no answer.
 */
export async function endFailedHotCall(
  exchange: HotExchange,
  input: {
    admission: Pick<Admission, 'refusalOr'>;
    failure: unknown;
    signal: AbortSignal;
    stream: { readonly isStarted: boolean };
    endStream: (error: GatewayError) => void;
  },
): Promise<undefined> {
  endFailedCall({
    ...input,
    log: exchange.log,
    error: await input.admission.refusalOr(input.failure),
    closeConnection: () => exchange.response.destroy(),
  });
  return undefined;
}
