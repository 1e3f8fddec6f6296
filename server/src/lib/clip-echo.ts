/**
 * Client input quoted back in an error message, cut to `maxChars` so a huge value (a 5 MB model name, a 16 KiB URL)
 * is never sent back or logged whole. The cut never splits a surrogate pair.
 */
export function clipEcho(text: string, maxChars = 200): string {
  if (text.length <= maxChars) return text;
  const lastCode = text.charCodeAt(maxChars - 1);
  const end = lastCode >= 0xd800 && lastCode <= 0xdbff ? maxChars - 1 : maxChars;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}
