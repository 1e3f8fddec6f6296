/** Text of a system, developer or tool message: a string, or its text parts joined with blank lines. */
export function joinTextContent(content: string | ReadonlyArray<{ text: string }>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('\n\n');
}
