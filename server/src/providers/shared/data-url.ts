/**
 * A base64 `data:` URL (`data:image/png;base64,…`) → its media type and base64 payload; undefined for any other URL
 * or a data URL that is not base64.
 * @see https://www.rfc-editor.org/rfc/rfc2397
 */
export function parseDataUrl(url: string): { mediaType: string; base64: string } | undefined {
  const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,]*)*);base64,(.*)$/is.exec(url);
  if (match?.[1] === undefined || match[3] === undefined) return undefined;
  return { mediaType: match[1].toLowerCase(), base64: match[3].replace(/\s+/g, '') };
}

export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
