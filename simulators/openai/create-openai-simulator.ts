import { createDialectSimulator } from '../openai-compatible/create-dialect-simulator.ts';
import type { VendorSimulator } from '../shared/simulator-exchange.ts';
import { handleImageFile, handleImageGenerations } from './handle-image-generations.ts';
import { handleResponses } from './handle-responses.ts';
import { openAiQuirks } from './openai-quirks.ts';

/** OpenAI: Chat Completions and models through the shared dialect, plus the Responses API and image generation. */
export function createOpenAiSimulator(): VendorSimulator {
  return createDialectSimulator(openAiQuirks, [
    { method: 'POST', path: '/responses', handle: handleResponses },
    { method: 'POST', path: '/images/generations', handle: handleImageGenerations },
    { method: 'GET', path: '/_files/', isPrefix: true, isPublic: true, handle: handleImageFile },
  ]);
}
