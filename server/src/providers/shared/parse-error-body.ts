import type { z } from 'zod';

/** An upstream body's text → parsed JSON, or the text itself when it is not JSON (proxies answer with HTML). */
export function parseBodyText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A vendor error body checked against the vendor's schema, or the raw text when it matched none. */
export type ParsedErrorBody<T> = { isStructured: true; error: T } | { isStructured: false; text: string };

/**
 * `body` is what `readUpstreamBody` gave: JSON or raw text. Text is trimmed and cut to a short excerpt; JSON that
 * does not match the schema yields empty text, so callers fall back to a generic message.
 */
export function parseErrorBody<T>(body: unknown, schema: z.ZodType<T>): ParsedErrorBody<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { isStructured: true, error: parsed.data };
  const text = typeof body === 'string' && !looksLikeMarkup(body) ? body.trim().slice(0, 500) : '';
  return { isStructured: false, text };
}

function looksLikeMarkup(text: string): boolean {
  return /^\s*</.test(text);
}
