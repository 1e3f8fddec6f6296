import type { ApiEndpoint } from '../../../../contract/api-endpoint.ts';
import { apiEndpoints, type OperationId } from '../../../../contract/api-endpoints.ts';
import { recordAudit, type RecordAuditDeps } from '../../audit/record-audit.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

/** A call of an endpoint as the registration loop passes it on, with the operator's session. */
type OperatorCall = { params: unknown; query: unknown; session?: unknown; request: { ip: string } };
type LooseHandler = (call: never) => Promise<unknown>;

/**
 * Every change an operator makes through the API (each `operator` entry of the endpoint table that is not a GET) is
 * recorded in the audit log: who, when, the endpoint as the action, its target, the target's state before (read with
 * the matching GET entry, or as noted below) and the answer as the state after. Answers of the operator API carry no
 * secret (a route's credential goes in, never out) and no prompt text, so they are safe to keep. A new operator
 * endpoint is audited without further work; `recordAudit` is for changes made elsewhere (the CLI, jobs).
 */
export function auditOperatorAction<Call extends OperatorCall>(input: {
  operationId: OperationId;
  endpoint: ApiEndpoint;
  handler: (call: Call) => unknown;
  handlers: Partial<ApiHandlers>;
  deps: RecordAuditDeps;
}): (call: Call) => Promise<unknown> {
  const { operationId, endpoint, handler } = input;
  if (endpoint.auth !== 'operator' || endpoint.method === 'get') return async (call) => handler(call);
  const readBefore = findBeforeReader(operationId, endpoint, input.handlers);
  return async (call) => {
    const before = readBefore ? await readBefore(call) : undefined;
    const after = await handler(call);
    const target = findTarget(endpoint.path, call.params, after);
    await recordAudit(input.deps, {
      action: operationId,
      actor: { userId: (call.session as { userId: string }).userId },
      target,
      accountId: target.kind === 'user' ? target.id : findOwner(after),
      before,
      after,
      clientAddress: call.request.ip,
    });
    return after;
  };
}

/** `/api/operator/<things>/{id}/…` → kind `<thing>`, the id from the path or, for a creation, the answer's. */
function findTarget(path: string, params: unknown, after: unknown): { kind: string; id: string | null } {
  const kind = (/^\/api\/operator\/([a-z-]+)/.exec(path)?.[1] ?? 'instance').replace(/s$/, '');
  const fromPath = (params as { id?: unknown } | undefined)?.id;
  const fromAnswer = (after as { id?: unknown } | undefined)?.id;
  const id = typeof fromPath === 'string' ? fromPath : typeof fromAnswer === 'string' ? fromAnswer : null;
  return { kind, id };
}

function findOwner(after: unknown): string | null {
  const owner = (after as { user_id?: unknown } | undefined)?.user_id;
  return typeof owner === 'string' ? owner : null;
}

/**
 * How to read the target's state before the change: a few targets have no single-item GET (a model's price is the
 * newest entry of its history, a route or a plan an item of the list); any other is the answer of the GET entry whose
 * path, with an `{id}`, is the longest prefix of this one (`/api/operator/users/{id}` for its terms, status, balance).
 */
function findBeforeReader(
  operationId: OperationId,
  endpoint: ApiEndpoint,
  handlers: Partial<ApiHandlers>,
): ((call: OperatorCall) => Promise<unknown>) | undefined {
  const call = (id: OperationId, input: OperatorCall) => (handlers[id] as LooseHandler | undefined)?.(input as never);
  const itemOf = async (list: Promise<unknown> | undefined, id: unknown) =>
    ((await list) as { data: Array<{ id: string }> } | undefined)?.data.find((item) => item.id === id);
  const idOf = (input: OperatorCall) => (input.params as { id?: unknown }).id;
  switch (operationId) {
    case 'setModelPrice':
      return async (input) => ((await call('listPriceHistory', input)) as { data: unknown[] } | undefined)?.data[0];
    case 'updateRoute':
      return async (input) => itemOf(call('listRoutes', input), idOf(input));
    case 'updateSubscriptionPlan':
      return async (input) => itemOf(call('listSubscriptionPlans', input), idOf(input));
    default:
      break;
  }
  const reader = (Object.keys(apiEndpoints) as OperationId[])
    .filter((id) => {
      const candidate: ApiEndpoint = apiEndpoints[id];
      return candidate.method === 'get' && candidate.path.includes('{id}') && endpoint.path.startsWith(candidate.path);
    })
    .sort((left, right) => apiEndpoints[right].path.length - apiEndpoints[left].path.length)[0];
  if (reader === undefined) return undefined;
  return async (input) => call(reader, { ...input, query: {} });
}
