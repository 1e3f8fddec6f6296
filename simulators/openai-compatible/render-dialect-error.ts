import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import type { RenderedError, SimError } from '../shared/sim-error.ts';
import type { DialectQuirks } from './dialect-quirks.ts';

export function renderDialectError(error: SimError, exchange: SimulatorExchange, quirks: DialectQuirks): RenderedError {
  const headers: Record<string, string> = quirks.requestIdHeaders(exchange.requestId);
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return { status: error.status, headers, body: quirks.renderErrorBody(error) };
}
