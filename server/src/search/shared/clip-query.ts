/**
 * A query cut to an engine's documented limits (Brave: 400 characters and 50 words), at a word boundary. The query is
 * the gateway's own, built from the conversation, so clipping it changes no client input.
 */
export function clipQuery(query: string, limits: { maxChars: number; maxWords?: number }): string {
  let words = query.trim().split(/\s+/).filter(Boolean);
  if (limits.maxWords !== undefined) words = words.slice(0, limits.maxWords);
  let clipped = words.join(' ');
  while (clipped.length > limits.maxChars && words.length > 1) {
    words = words.slice(0, -1);
    clipped = words.join(' ');
  }
  if (clipped.length <= limits.maxChars) return clipped;
  const cut = clipped.slice(0, limits.maxChars);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
