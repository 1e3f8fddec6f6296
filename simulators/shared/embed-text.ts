import { createRandom } from './random.ts';

/** What a simulated embedding model produces and takes, from the vendors' model pages. */
export type EmbeddingProfile = { dimensions: number; maxInputTokens: number; canShorten: boolean };

const profiles: ReadonlyArray<{ pattern: RegExp; profile: EmbeddingProfile }> = [
  // https://platform.openai.com/docs/guides/embeddings#embedding-models
  { pattern: /^text-embedding-3-small/, profile: { dimensions: 1536, maxInputTokens: 8191, canShorten: true } },
  { pattern: /^text-embedding-3-large/, profile: { dimensions: 3072, maxInputTokens: 8191, canShorten: true } },
  { pattern: /^text-embedding-ada-002/, profile: { dimensions: 1536, maxInputTokens: 8191, canShorten: false } },
  // https://docs.mistral.ai/capabilities/embeddings/
  { pattern: /^mistral-embed/, profile: { dimensions: 1024, maxInputTokens: 8192, canShorten: false } },
  // https://ai.google.dev/gemini-api/docs/embeddings
  { pattern: /^gemini-embedding/, profile: { dimensions: 3072, maxInputTokens: 2048, canShorten: true } },
  { pattern: /^text-embedding-004/, profile: { dimensions: 768, maxInputTokens: 2048, canShorten: true } },
  // https://huggingface.co/BAAI/bge-large-en-v1.5 (served by Together)
  { pattern: /bge-large/i, profile: { dimensions: 1024, maxInputTokens: 512, canShorten: false } },
  { pattern: /bge-base/i, profile: { dimensions: 768, maxInputTokens: 512, canShorten: false } },
];

/** The profile of an embedding model, or undefined for a model that does not embed (a chat model). */
export function findEmbeddingProfile(model: string): EmbeddingProfile | undefined {
  return profiles.find((entry) => entry.pattern.test(model))?.profile;
}

/**
 * A deterministic unit vector for an input: the same model and text always give the same vector, different texts
 * different ones, so tests can compare results across calls and vendors.
 */
export function embedText(input: { model: string; text: string; dimensions: number }): number[] {
  const random = createRandom(`embedding\u0000${input.model}\u0000${input.text}`);
  const values = Array.from({ length: input.dimensions }, () => random.nextFloat() * 2 - 1);
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0)) || 1;
  return values.map((value) => value / norm);
}
