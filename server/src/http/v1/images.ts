import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import type { AccountTerms } from '../../accounts/account-terms.ts';
import { runImageGeneration, type ImageGenerationDeps } from '../../images/run-image-generation.ts';
import { authenticate, type AuthenticateDeps } from '../../pipeline/authenticate.ts';
import { admitCall } from '../../pipeline/admit-call.ts';
import type { TakeCallSlotDeps } from '../../pipeline/take-call-slot.ts';
import { gatewayRouteHeader } from '../gateway-route-header.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';

export type ImagesRouteDeps = AuthenticateDeps &
  ImageGenerationDeps &
  TakeCallSlotDeps & {
    rateLimiter: RateLimiter;
    accountTerms: Pick<AccountTerms, 'priceModel' | 'limitsOf'>;
  };

/** `POST /v1/images/generations`: OpenAI's image API over every image vendor, billed per image. */
export function registerImageRoutes(app: FastifyInstance, deps: ImagesRouteDeps): void {
  app.post('/v1/images/generations', async (request, reply) => {
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
      return await runImageGeneration(deps, {
        caller,
        body: request.body,
        requestId: request.id,
        signal: controller.signal,
        onServed: (origin) => reply.headers(gatewayRouteHeader(caller, origin.routeId)),
        admission,
      });
    } catch (error) {
      throw await admission.refusalOr(error);
    }
  });
}
