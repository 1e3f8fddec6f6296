import { isRejectedKey, maskKey, readBearerKey } from '../shared/read-bearer-key.ts';
import { sendError, sendJson } from '../shared/send-response.ts';
import { listKnownModelIds } from '../shared/list-known-model-ids.ts';
import { createSimError } from '../shared/sim-error.ts';
import type { SimulatorExchange, VendorSimulator } from '../shared/simulator-exchange.ts';
import type { DialectQuirks } from './dialect-quirks.ts';
import { handleChatCompletions } from './handle-chat-completions.ts';
import { handleEmbeddings } from './handle-embeddings.ts';
import { renderDialectError } from './render-dialect-error.ts';

/** An extra endpoint under the API root (OpenAI adds `/responses` and `/images/generations`). */
export type DialectRoute = {
  method: 'GET' | 'POST';
  path: string;
  /** Matches every path under `path`. */
  isPrefix?: boolean;
  /** Served without a key (like the vendor's CDN links to generated files). */
  isPublic?: boolean;
  handle: (exchange: SimulatorExchange) => Promise<void>;
};

/** A vendor simulator for an OpenAI-dialect vendor: auth, `/chat/completions`, `/models`, plus any extra routes. */
export function createDialectSimulator(
  quirks: DialectQuirks,
  extraRoutes: readonly DialectRoute[] = [],
): VendorSimulator {
  const simulator: VendorSimulator = {
    createRequestId: quirks.createRequestId,
    renderError: (error, exchange) => renderDialectError(error, exchange, quirks),
    handle: async (exchange) => {
      const reject = (status: number, message: string, code?: string) =>
        sendError(
          exchange,
          simulator.renderError(createSimError(status, message, code ? { code } : {}), exchange),
          exchange.pathFaults,
        );
      const root = quirks.apiRoots.find((candidate) => exchange.path.startsWith(`${candidate}/`));
      const apiPath = root === undefined ? undefined : exchange.path.slice(root.length);
      if (apiPath === undefined) return reject(404, `Invalid URL (${exchange.method} ${exchange.path})`);
      const route = extraRoutes.find(
        (candidate) =>
          candidate.method === exchange.method &&
          (candidate.isPrefix ? apiPath.startsWith(candidate.path) : candidate.path === apiPath),
      );
      if (route?.isPublic) return route.handle(exchange);
      const key = readBearerKey(exchange.request.headers);
      if (key === undefined && quirks.isKeyRequired) {
        return reject(401, "You didn't provide an API key. Provide it in an Authorization header using Bearer auth.");
      }
      if (key !== undefined && isRejectedKey(key)) {
        return reject(401, `Incorrect API key provided: ${maskKey(key)}.`, 'invalid_api_key');
      }
      if (exchange.method === 'POST' && apiPath === '/chat/completions') return handleChatCompletions(exchange, quirks);
      if (exchange.method === 'POST' && apiPath === '/embeddings') return handleEmbeddings(exchange, quirks);
      if (exchange.method === 'GET' && apiPath === '/models') return listModels(exchange, quirks);
      if (exchange.method === 'GET' && apiPath.startsWith('/models/')) {
        return sendJson(exchange, {
          status: 200,
          headers: quirks.requestIdHeaders(exchange.requestId),
          body: modelObject(decodeURIComponent(apiPath.slice('/models/'.length)), quirks),
          faults: exchange.pathFaults,
        });
      }
      if (route) return route.handle(exchange);
      return reject(404, `Invalid URL (${exchange.method} ${exchange.path})`);
    },
  };
  return simulator;
}

async function listModels(exchange: SimulatorExchange, quirks: DialectQuirks): Promise<void> {
  const ids = await listKnownModelIds(quirks.modelIds, quirks.knownModels);
  return sendJson(exchange, {
    status: 200,
    headers: quirks.requestIdHeaders(exchange.requestId),
    body: { object: 'list', data: ids.map((id) => modelObject(id, quirks)) },
    faults: exchange.pathFaults,
  });
}

/** docs/reference/openai.md §Models and images The simulator serves any model name, so any id resolves. */
function modelObject(id: string, quirks: DialectQuirks): Record<string, unknown> {
  return {
    id,
    object: 'model',
    created: 1_700_000_000,
    owned_by: quirks.vendor === 'openai' ? 'system' : quirks.vendor,
  };
}
