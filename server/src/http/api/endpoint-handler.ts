import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  ApiEndpoint,
  EndpointAnswer,
  EndpointAuth,
  EndpointBody,
  EndpointParams,
  EndpointQuery,
} from '../../../../contract/api-endpoint.ts';
import type { ApiEndpoints } from '../../../../contract/api-endpoints.ts';
import type { SignedInSession } from '../../accounts/find-session.ts';
import type { Caller } from '../../pipeline/authenticate.ts';

/** Who called, as the endpoint's auth level established before its handler runs. */
export type EndpointCaller<Auth extends EndpointAuth> = Auth extends 'session' | 'operator'
  ? { session: SignedInSession }
  : Auth extends 'sessionIfAny'
    ? { session: SignedInSession | undefined }
    : Auth extends 'apiKey'
      ? { caller: Caller }
      : unknown;

/**
 * One call of an endpoint, checked against its table entry: the caller is authenticated and the query and body are
 * parsed with the entry's schemas before the handler sees them. `reply` is there for cookies, headers and a status
 * other than the entry's (200 for an idempotent repeat of a 201).
 */
export type EndpointCall<Endpoint extends ApiEndpoint> = {
  request: FastifyRequest;
  reply: FastifyReply;
  params: EndpointParams<Endpoint>;
  query: EndpointQuery<Endpoint>;
  body: EndpointBody<Endpoint>;
} & EndpointCaller<Endpoint['auth']>;

/** Serves one endpoint: its answer is sent with the entry's status (or the one the handler set). */
export type EndpointHandler<Endpoint extends ApiEndpoint> = (
  call: EndpointCall<Endpoint>,
) => Promise<EndpointAnswer<Endpoint>>;

/** A handler for every endpoint of the table, so an entry without one does not compile. */
export type ApiHandlers = { [Id in keyof ApiEndpoints]: EndpointHandler<ApiEndpoints[Id]> };
