import type { z } from 'zod';
import { SearchEngineError } from '../search-engine-error.ts';
import { searchEngineNames, type SearchEngineId } from '../search-engine.ts';

/**
 * Checks an engine's 200 body against its schema. A mismatch means the engine (or a proxy in front of it) broke its
 * wire format: `unavailable`, so the pipeline answers without search results.
 */
export function parseEngineBody<T>(schema: z.ZodType<T>, body: unknown, engine: SearchEngineId): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new SearchEngineError({
    kind: 'unavailable',
    engine,
    message: `${searchEngineNames[engine]} sent a response the gateway could not read.`,
    engineCode: 'unexpected_response',
  });
}
