import type { FastifyInstance } from 'fastify';
import type { AccountTerms } from '../../accounts/account-terms.ts';
import { runEmbeddings, type EmbeddingsDeps } from '../../embeddings/run-embeddings.ts';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import { authenticate, type AuthenticateDeps } from '../../pipeline/authenticate.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import type { TakeCallSlotDeps } from '../../pipeline/take-call-slot.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';

export type EmbeddingsRouteDeps = AuthenticateDeps &
  EmbeddingsDeps &
  TakeCallSlotDeps & {
    rateLimiter: RateLimiter;
    accountTerms: Pick<AccountTerms, 'limitsOf'>;
  };

/** `POST /v1/embeddings`: OpenAI's embeddings API over every embedding model, billed per input token. */
export function registerEmbeddingRoutes(app: FastifyInstance, deps: EmbeddingsRouteDeps): void {
  app.post('/v1/embeddings', async (request, reply) => {
    const caller = await authenticate(deps, readAuthHeaders(request));
    await using admission = admitCall(deps, {
      caller,
      requestId: request.id,
      setHeaders: (headers) => void reply.headers(headers),
    });
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('The client closed the connection.'));
    });
    try {
      return await runEmbeddings(deps, {
        caller,
        body: request.body,
        requestId: request.id,
        signal: controller.signal,
        admission,
      });
    } catch (error) {
      throw await admission.refusalOr(error);
    }
  });
}
