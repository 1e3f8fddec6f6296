/**
 * Whether a URL is an absolute `http:` or `https:` address, the only kind a citation may link to: a vendor's or a
 * search engine's annotation could carry `javascript:` or `data:`, which must never become a clickable link.
 */
export function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}
