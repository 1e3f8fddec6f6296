import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderId } from '../server/src/providers/provider-id.ts';
import { noFaults, parseFaultSegment } from './shared/fault-spec.ts';
import { createRandom } from './shared/random.ts';
import { dropConnection, sendError } from './shared/send-response.ts';
import { createFaultError, createSimError } from './shared/sim-error.ts';
import type { SimulatorExchange, SimulatorTiming, VendorSimulator } from './shared/simulator-exchange.ts';
import type { SimulatorState } from './shared/simulator-state.ts';

export type RouterDependencies = {
  state: SimulatorState;
  timing: SimulatorTiming;
  vendors: Record<ProviderId, VendorSimulator>;
  /** The keys of `vendors`: the path prefixes served. */
  vendorIds: readonly ProviderId[];
  /** Aborted when the simulator closes, so stalled streams end. */
  closingSignal: AbortSignal;
};

/**
 * Dispatches one request: the `/_sim/` test API, then an optional `/_fault/<spec>/` prefix, then the vendor prefix.
 * Path faults that need no parsing (reset, status) are answered here, in the vendor's error shape.
 */
export async function routeSimulatorRequest(
  request: IncomingMessage,
  response: ServerResponse,
  deps: RouterDependencies,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://simulator.invalid');
  let path = url.pathname;
  if (path.startsWith('/_sim/')) return handleTestApi(request, response, { path, state: deps.state });
  let pathFaults = noFaults;
  const faultMatch = /^\/_fault\/([^/]*)(\/.*)$/.exec(path);
  if (faultMatch) {
    pathFaults = parseFaultSegment(safeDecode(faultMatch[1] ?? ''));
    path = faultMatch[2] ?? '/';
  }
  const vendorMatch = /^\/([a-z]+)(\/.*)?$/.exec(path);
  const vendorId = deps.vendorIds.find((id) => id === vendorMatch?.[1]);
  if (!vendorId) {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: `No simulated vendor serves ${path}` }));
    return;
  }
  deps.state.stats.requestsByVendor[vendorId] += 1;
  deps.state.stats.totalRequests += 1;
  const vendor = deps.vendors[vendorId];
  const controller = new AbortController();
  const abort = () => controller.abort();
  response.once('close', abort);
  deps.closingSignal.addEventListener('abort', abort, { once: true });
  response.once('close', () => deps.closingSignal.removeEventListener('abort', abort));
  const ids = createRandom(`${deps.state.nextRequestNumber()}\u0000${randomUUID()}`);
  const exchange: SimulatorExchange = {
    request,
    response,
    method: request.method ?? 'GET',
    path: vendorMatch?.[2] ?? '/',
    query: url.searchParams,
    pathFaults,
    signal: controller.signal,
    timing: deps.timing,
    state: deps.state,
    ids,
    requestId: vendor.createRequestId(ids),
    isDroppedOnPurpose: false,
  };
  if (pathFaults.isReset) return dropConnection(exchange);
  if (pathFaults.status !== undefined) {
    request.resume();
    const error = createFaultError(pathFaults.status, pathFaults.retryAfterSeconds);
    return sendError(exchange, vendor.renderError(error, exchange), pathFaults);
  }
  try {
    await vendor.handle(exchange);
  } catch {
    // Never log the error: it may quote request text. Answer like a vendor outage.
    if (!response.headersSent) {
      const rendered = vendor.renderError(
        createSimError(500, 'The simulator failed to handle this request.'),
        exchange,
      );
      await sendError(exchange, rendered, noFaults);
    } else {
      dropConnection(exchange);
    }
  }
}

function handleTestApi(
  request: IncomingMessage,
  response: ServerResponse,
  input: { path: string; state: SimulatorState },
): void {
  request.resume();
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (input.path === '/_sim/stats' && request.method === 'GET') return send(200, input.state.stats);
  if (input.path === '/_sim/reset' && request.method === 'POST') {
    input.state.reset();
    return send(200, { ok: true });
  }
  send(404, { error: 'Unknown simulator test endpoint: GET /_sim/stats, POST /_sim/reset' });
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
