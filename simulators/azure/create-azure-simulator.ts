import { handleChatCompletions } from '../openai-compatible/handle-chat-completions.ts';
import { renderDialectError } from '../openai-compatible/render-dialect-error.ts';
import { isRejectedKey } from '../shared/read-bearer-key.ts';
import { sendError } from '../shared/send-response.ts';
import { createSimError } from '../shared/sim-error.ts';
import type { VendorSimulator } from '../shared/simulator-exchange.ts';
import { azureQuirks } from './azure-quirks.ts';
import { findDeploymentModel } from './find-deployment-model.ts';

const deploymentPattern = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

/**
 * Azure OpenAI, under the `/azure` prefix as the resource endpoint: `POST /openai/deployments/{deployment}/chat/
 * completions?api-version=…` with the key in `api-key`. Like Azure: the deployment in the URL decides the model (the
 * body's `model` is optional and ignored); no or a wrong key is a 401, a missing api-version or an unknown path a 404
 * "Resource not found", a deployment that does not exist a 404 `DeploymentNotFound`.
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
      const deployment = readDeployment(exchange.path);
      if (exchange.method !== 'POST' || deployment === undefined || !exchange.query.get('api-version')) {
        return reject(404, 'Resource not found');
      }
      const model = findDeploymentModel(deployment);
      if (model === undefined) {
        const error = createSimError(
          404,
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
          { code: 'DeploymentNotFound' },
        );
        return sendError(exchange, simulator.renderError(error, exchange), exchange.pathFaults);
      }
      return handleChatCompletions(exchange, azureQuirks, { model });
    },
  };
  return simulator;
}

/** The deployment name of a chat-completions path, decoded; undefined for any other path. */
function readDeployment(path: string): string | undefined {
  const encoded = deploymentPattern.exec(path)?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}
