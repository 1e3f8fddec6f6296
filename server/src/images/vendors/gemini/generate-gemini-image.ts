import type { GeneratedImages, ImageCallInput } from '../../image-client.ts';
import { geminiImageAspectRatios } from '../../image-profiles.ts';
import { parseGeminiImageAnswer } from './parse-gemini-image-answer.ts';
import { postToGoogle } from './post-to-google.ts';

/**
 * A Gemini image model through `:generateContent`: the prompt as one user turn, `responseModalities: ["IMAGE"]`
 * and the aspect ratio of the requested size; the image comes back as an `inlineData` part.
 * @see https://ai.google.dev/gemini-api/docs/image-generation
 */
export async function generateGeminiImage(input: ImageCallInput): Promise<GeneratedImages> {
  const aspectRatio = geminiImageAspectRatios[input.job.size] ?? '1:1';
  const body = {
    contents: [{ role: 'user', parts: [{ text: input.job.prompt }] }],
    generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio } },
  };
  return parseGeminiImageAnswer(await postToGoogle(input, { method: 'generateContent', body }), input.job.count);
}
