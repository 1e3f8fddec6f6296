/**
 * Splits text into pieces of `size` code points. Tool arguments and JSON answers stream as such pieces, and each piece
 * counts as one output token, so usage always equals the number of streamed pieces.
 */
export function splitIntoFragments(text: string, size = 4): string[] {
  const codePoints = Array.from(text);
  const fragments: string[] = [];
  for (let index = 0; index < codePoints.length; index += size) {
    fragments.push(codePoints.slice(index, index + size).join(''));
  }
  return fragments;
}
