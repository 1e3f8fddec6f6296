/** A route's configured API root plus a vendor path; a trailing slash on the root is tolerated. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
