/** The OpenAI error body: all four keys always present (wire-formats.md §3.1). */
export type ErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};
