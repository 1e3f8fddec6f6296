import type { z } from 'zod';

/** The first schema problem of a request, with its field path in the vendor's notation. */
export type SchemaIssue = { path: string; isMissing: boolean; detail: string };

/** `brackets`: `messages[0].content` (OpenAI, Gemini); `dots`: `messages.0.content` (Anthropic, pydantic-style). */
export function describeSchemaIssue(error: z.ZodError, notation: 'brackets' | 'dots'): SchemaIssue {
  const issue = error.issues[0];
  const segments = issue?.path ?? [];
  const path = segments.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return notation === 'brackets' ? `${text}[${segment}]` : `${text}.${segment}`;
    return text ? `${text}.${String(segment)}` : String(segment);
  }, '');
  const isMissing = issue?.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined;
  return { path, isMissing, detail: issue?.message ?? 'invalid value' };
}
