import { handleGenerateContent } from '../gemini/handle-generate-content.ts';
import { renderGeminiError } from '../gemini/render-gemini-error.ts';
import { alphanumeric } from '../shared/random.ts';
import { isRejectedKey, readBearerKey } from '../shared/read-bearer-key.ts';
import { sendError } from '../shared/send-response.ts';
import { createSimError } from '../shared/sim-error.ts';
import type { VendorSimulator } from '../shared/simulator-exchange.ts';

const methodPattern =
  /^\/(v1|v1beta1)\/projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * Google Vertex AI, under the `/vertex` prefix as the regional endpoint: Gemini's bodies at
 * `POST /v1/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent` (or
 * `:streamGenerateContent[?alt=sse]`), authorised by an OAuth bearer token. Like Google: a missing or invalid token
 * is a 401 UNAUTHENTICATED.
 */
export function createVertexSimulator(): VendorSimulator {
  return {
    createRequestId: (ids) => ids.nextString(`${alphanumeric}-_`, 22),
    renderError: renderGeminiError,
    handle: async (exchange) => {
      const reject = (status: number, message: string) =>
        sendError(exchange, renderGeminiError(createSimError(status, message), exchange), exchange.pathFaults);
      const token = readBearerKey(exchange.request.headers);
      if (token === undefined) {
        return reject(
          401,
          'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        );
      }
      if (isRejectedKey(token)) {
        return reject(
          401,
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        );
      }
      const match = methodPattern.exec(exchange.path);
      if (exchange.method !== 'POST' || !match) {
        return reject(404, `The requested URL ${exchange.path} was not found on this server.`);
      }
      return handleGenerateContent(exchange, {
        model: decodeURIComponent(match[2] ?? ''),
        isStreaming: match[3] === 'streamGenerateContent',
      });
    },
  };
}
