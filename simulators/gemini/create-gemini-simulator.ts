import { handleGoogleImageRequest } from './images/handle-google-image-request.ts';
import { alphanumeric } from '../shared/random.ts';
import { isRejectedKey } from '../shared/read-bearer-key.ts';
import { sendError, sendJson } from '../shared/send-response.ts';
import { listKnownModelIds } from '../shared/list-known-model-ids.ts';
import { createSimError } from '../shared/sim-error.ts';
import type { SimulatorExchange, VendorSimulator } from '../shared/simulator-exchange.ts';
import { handleCountTokens } from './handle-count-tokens.ts';
import { handleEmbedContents } from './handle-embed-contents.ts';
import { handleGenerateContent } from './handle-generate-content.ts';
import { renderGeminiError } from './render-gemini-error.ts';

const geminiModelIds = [
  'gemini-3-pro-preview',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.5-flash-image',
  'gemini-embedding-001',
  'imagen-4.0-generate-001',
] as const;
const embedPattern = /^\/(v1beta|v1)\/models\/([^/:]+):(embedContent|batchEmbedContents)$/;
const methodPattern = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

/**
 * Gemini (docs/reference/gemini.md). The key comes in `x-goog-api-key` or `?key=`. Like Google: no key is a 403, and a bad key
 * is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID (not a 401). Google sends no request-id header; the
 * `responseId` in the body identifies the answer.
 */
export function createGeminiSimulator(): VendorSimulator {
  return {
    createRequestId: (ids) => ids.nextString(`${alphanumeric}-_`, 22),
    renderError: renderGeminiError,
    handle: async (exchange) => {
      const reject = (status: number, message: string, code?: string) =>
        sendError(
          exchange,
          renderGeminiError(createSimError(status, message, code ? { code } : {}), exchange),
          exchange.pathFaults,
        );
      const headerKey = exchange.request.headers['x-goog-api-key'];
      const key =
        (typeof headerKey === 'string' && headerKey !== '' ? headerKey : undefined) ??
        (exchange.query.get('key') || undefined);
      if (key === undefined) {
        return reject(
          403,
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        );
      }
      if (isRejectedKey(key)) return reject(400, 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID');
      if (await handleGoogleImageRequest(exchange)) return;
      const embed = embedPattern.exec(exchange.path);
      if (exchange.method === 'POST' && embed) {
        const model = decodeURIComponent(embed[2] ?? '');
        return handleEmbedContents(exchange, { model, isBatch: embed[3] === 'batchEmbedContents' });
      }
      const match = methodPattern.exec(exchange.path);
      if (exchange.method === 'POST' && match?.[3] === 'countTokens') {
        return handleCountTokens(exchange, { model: decodeURIComponent(match[2] ?? '') });
      }
      if (exchange.method === 'POST' && match) {
        return handleGenerateContent(exchange, {
          model: decodeURIComponent(match[2] ?? ''),
          isStreaming: match[3] === 'streamGenerateContent',
        });
      }
      if (exchange.method === 'GET' && /^\/(v1beta|v1)\/models$/.test(exchange.path)) return listModels(exchange);
      return reject(404, `Method not found: ${exchange.method} ${exchange.path}.`);
    },
  };
}

async function listModels(exchange: SimulatorExchange): Promise<void> {
  const ids = await listKnownModelIds(geminiModelIds, { priceDataProviderId: 'google', pattern: /^gemini-/ });
  const models = ids.map((id) => ({
    name: `models/${id}`,
    displayName: id,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  }));
  return sendJson(exchange, { status: 200, headers: {}, body: { models }, faults: exchange.pathFaults });
}
