import { handleChatCompletions } from '../openai-compatible/handle-chat-completions.ts';
import { renderDialectError } from '../openai-compatible/render-dialect-error.ts';
import { isRejectedKey } from '../shared/read-bearer-key.ts';
import { sendError } from '../shared/send-response.ts';
import { createSimError } from '../shared/sim-error.ts';
import type { VendorSimulator } from '../shared/simulator-exchange.ts';
import { azureQuirks } from './azure-quirks.ts';

const deploymentPattern = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

/**
 * Azure OpenAI, under the `/azure` prefix as the resource endpoint: `POST /openai/deployments/{deployment}/chat/
 * completions?api-version=…` with the key in `api-key`. Like Azure: no or a wrong key is a 401, a missing
 * api-version or an unknown path a 404 "Resource not found".
 */
export function createAzureSimulator(): VendorSimulator {
  const simulator: VendorSimulator = {
    createRequestId: (ids) => ids.nextString('0123456789abcdef', 32),
    renderError: (error, exchange) => renderDialectError(error, exchange, azureQuirks),
    handle: async (exchange) => {
      const reject = (status: number, message: string) =>
        sendError(exchange, simulator.renderError(createSimError(status, message), exchange), exchange.pathFaults);
      const key = exchange.request.headers['api-key'];
      if (typeof key !== 'string' || key === '') {
        return reject(
          401,
          'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
        );
      }
      if (isRejectedKey(key)) {
        return reject(
          401,
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        );
      }
      if (exchange.method !== 'POST' || !deploymentPattern.test(exchange.path) || !exchange.query.get('api-version')) {
        return reject(404, 'Resource not found');
      }
      return handleChatCompletions(exchange, azureQuirks);
    },
  };
  return simulator;
}
