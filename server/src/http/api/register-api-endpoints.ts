import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiEndpoint } from '../../../../contract/api-endpoint.ts';
import { apiEndpoints, type OperationId } from '../../../../contract/api-endpoints.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { authenticate, type AuthenticateDeps } from '../../pipeline/authenticate.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { readAuthHeaders } from '../read-auth-headers.ts';
import { createApiHandlers, type ApiHandlerDeps } from './create-api-handlers.ts';
import type { ApiHandlers, EndpointHandler } from './endpoint-handler.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { requireOperator } from './operator-guard.ts';
import { auditOperatorAction } from './audit-operator-actions.ts';
import type { RecordAuditDeps } from '../../audit/record-audit.ts';
import { requireOperatorSecondFactor, type OperatorTotpDeps } from '../../accounts/operator-totp.ts';

/**
 * What the loop needs to establish the caller of an entry's `auth` level. `operatorTotp` gates the operator API on
 * the second factor; only a group's own tests, which register no such gate, leave it out.
 */
export type CallerDeps = AuthenticateDeps & { sessions: SessionGuard; operatorTotp?: OperatorTotpDeps };

export type ApiEndpointDeps = Omit<ApiHandlerDeps, 'openApiDocument'> &
  CallerDeps & { version: string; publicBaseUrl: string; operatorTotp: OperatorTotpDeps };

/** Registers every endpoint of the account and operator API (`contract/api-endpoints.ts`), one route per entry. */
export function registerApiEndpoints(app: FastifyInstance, deps: ApiEndpointDeps): void {
  const openApiDocument = buildOpenApiDocument({ version: deps.version, serverUrl: deps.publicBaseUrl });
  registerHandledEndpoints(app, deps, createApiHandlers({ ...deps, openApiDocument }), deps);
}

/**
 * Registers the entries of the table that `handlers` serves, one route each (all of them from `registerApiEndpoints`;
 * a group of them in that group's own tests). With `audit`, every operator change is recorded in the audit log.
 */
export function registerHandledEndpoints(
  app: FastifyInstance,
  deps: CallerDeps,
  handlers: Partial<ApiHandlers>,
  audit?: RecordAuditDeps,
): void {
  for (const operationId of Object.keys(apiEndpoints) as OperationId[]) {
    const handler = handlerOf(handlers, operationId);
    if (handler === undefined) continue;
    const endpoint = apiEndpoints[operationId];
    const audited = audit ? auditOperatorAction({ operationId, endpoint, handler, handlers, deps: audit }) : handler;
    registerEndpoint(app, deps, { endpoint, handler: audited });
  }
}

/** What the loop calls: the handler of one entry, its input already parsed with that entry's own schemas. */
type ParsedCall = {
  request: FastifyRequest;
  reply: FastifyReply;
  params: unknown;
  query: unknown;
  body: unknown;
  session?: unknown;
  caller?: unknown;
};

function handlerOf<Id extends OperationId>(
  handlers: Partial<ApiHandlers>,
  operationId: Id,
): ((call: ParsedCall) => unknown) | undefined {
  const handler: EndpointHandler<(typeof apiEndpoints)[Id]> | undefined = handlers[operationId];
  // The compiler cannot follow one entry's schemas through a loop over all of them; registerEndpoint parses the
  // query and body with exactly the entry this handler was typed against, so the call it builds has that type.
  return handler as unknown as (call: ParsedCall) => unknown;
}

function registerEndpoint(
  app: FastifyInstance,
  deps: CallerDeps,
  route: { endpoint: ApiEndpoint; handler: (call: ParsedCall) => unknown },
): void {
  const { endpoint, handler } = route;
  app.route({
    method: endpoint.method.toUpperCase(),
    url: endpoint.path.replaceAll(/\{([A-Za-z]+)\}/g, ':$1'),
    handler: async (request, reply) => {
      const caller = await authenticateCall(endpoint, deps, request);
      const query = endpoint.query ? parseWireRequest(endpoint.query, request.query) : undefined;
      const body = endpoint.body ? parseWireRequest(endpoint.body.schema, request.body) : undefined;
      reply.status(endpoint.response.status);
      const answer = await handler({ request, reply, params: request.params, query, body, ...caller });
      return reply.send(answer);
    },
  });
}

async function authenticateCall(endpoint: ApiEndpoint, deps: CallerDeps, request: FastifyRequest) {
  switch (endpoint.auth) {
    case 'public':
      return {};
    case 'session':
      return { session: deps.sessions.requireSession(request) };
    case 'sessionIfAny':
      return { session: deps.sessions.findSession(request) };
    case 'operator': {
      const session = requireOperator(deps.sessions, request);
      if (deps.operatorTotp) await requireOperatorSecondFactor(deps.operatorTotp, session);
      return { session };
    }
    case 'apiKey':
      return { caller: await authenticate(deps, readAuthHeaders(request)) };
    default:
      return endpoint.auth satisfies never;
  }
}
