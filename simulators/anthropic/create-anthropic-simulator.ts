import { alphanumeric } from '../shared/random.ts';
import { isRejectedKey, readBearerKey } from '../shared/read-bearer-key.ts';
import { sendError, sendJson } from '../shared/send-response.ts';
import { listKnownModelIds } from '../shared/list-known-model-ids.ts';
import { createSimError } from '../shared/sim-error.ts';
import type { SimulatorExchange, VendorSimulator } from '../shared/simulator-exchange.ts';
import { handleCountTokens, handleMessages } from './handle-messages.ts';
import { renderAnthropicError } from './render-anthropic-error.ts';

const anthropicModelIds = ['claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'] as const;

/** Anthropic: `x-api-key` (or a bearer token) and `anthropic-version` are required on every request (§5). */
export function createAnthropicSimulator(): VendorSimulator {
  return {
    createRequestId: (ids) => `req_011C${ids.nextString(alphanumeric, 20)}`,
    renderError: renderAnthropicError,
    handle: async (exchange) => {
      const reject = (status: number, message: string) =>
        sendError(exchange, renderAnthropicError(createSimError(status, message), exchange), exchange.pathFaults);
      const headerKey = exchange.request.headers['x-api-key'];
      const key =
        (typeof headerKey === 'string' && headerKey !== '' ? headerKey : undefined) ??
        readBearerKey(exchange.request.headers);
      if (key === undefined) return reject(401, 'x-api-key header is required');
      if (isRejectedKey(key)) return reject(401, 'invalid x-api-key');
      if (!exchange.request.headers['anthropic-version']) return reject(400, 'anthropic-version: header is required');
      if (exchange.method === 'POST' && exchange.path === '/v1/messages') return handleMessages(exchange);
      if (exchange.method === 'POST' && exchange.path === '/v1/messages/count_tokens')
        return handleCountTokens(exchange);
      if (exchange.method === 'GET' && exchange.path === '/v1/models') return listModels(exchange);
      return reject(404, 'Not found');
    },
  };
}

async function listModels(exchange: SimulatorExchange): Promise<void> {
  const ids = await listKnownModelIds(anthropicModelIds, { priceDataProviderId: 'anthropic', pattern: /^claude-/ });
  const data = ids.map((id) => ({
    type: 'model',
    id,
    display_name: id,
    created_at: '2025-09-29T00:00:00Z',
  }));
  return sendJson(exchange, {
    status: 200,
    headers: { 'request-id': exchange.requestId },
    body: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
    faults: exchange.pathFaults,
  });
}
