/** The OpenAI error body: all four keys always present (docs/reference/openai.md §Errors). */
export type ErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};
