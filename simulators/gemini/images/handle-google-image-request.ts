import type { SimulatorExchange } from '../../shared/simulator-exchange.ts';
import { handleGeminiImage } from './handle-gemini-image.ts';
import { handleImagenPredict } from './handle-imagen-predict.ts';

const methodPattern = /^\/(?:v1beta|v1)\/models\/([^/:]+):(generateContent|predict)$/;

/**
 * Answers the image endpoints under the Gemini prefix (Imagen `:predict`, and `:generateContent` of an image model
 * such as `gemini-2.5-flash-image`); returns false, body untouched, for anything else.
 */
export async function handleGoogleImageRequest(exchange: SimulatorExchange): Promise<boolean> {
  const match = methodPattern.exec(exchange.path);
  if (exchange.method !== 'POST' || !match) return false;
  const model = decodeURIComponent(match[1] ?? '');
  if (match[2] === 'predict') {
    await handleImagenPredict(exchange, { model });
    return true;
  }
  if (!/^gemini-.*image/.test(model)) return false;
  await handleGeminiImage(exchange, { model });
  return true;
}
