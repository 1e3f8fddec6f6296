const maxMessageLength = 500;

/** Secrets and internal addresses a vendor message may echo back; each is replaced before a client sees it. */
const redactions: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bBearer\s+\S+/gi, 'Bearer [redacted]'],
  [/\b(?:sk|xai|gsk|pk|rk)[-_][A-Za-z0-9_*.-]{6,}/g, '[redacted key]'],
  [/\bAIza[0-9A-Za-z_-]{10,}/g, '[redacted key]'],
  [/\b(?:org|proj|user)-[A-Za-z0-9]{8,}/g, '[redacted id]'],
  [/\b(?:api[_-]?key|key|token)=[^&\s"']+/gi, '[redacted key]'],
  [
    /\bhttps?:\/\/(?:localhost|127(?:\.\d+){3}|10(?:\.\d+){3}|192\.168(?:\.\d+){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d+){2}|\[[0-9a-f:]+\]|[a-z0-9.-]+\.(?:internal|local|lan|svc|cluster\.local))(?::\d+)?[^\s"')]*/gi,
    '[internal address]',
  ],
  [/\b\d{1,3}(?:\.\d{1,3}){3}:\d{2,5}\b/g, '[internal address]'],
];

/**
 * A vendor error message made safe to show a client (docs/STYLE.md §8): keys, account ids and internal hosts redacted,
 * whitespace collapsed, length capped.
 */
export function cleanVendorMessage(message: string): string {
  let cleaned = message;
  for (const [pattern, replacement] of redactions) cleaned = cleaned.replace(pattern, replacement);
  cleaned = cleaned.replace(/\s+/g, ' ').trim();
  return cleaned.length > maxMessageLength ? `${cleaned.slice(0, maxMessageLength - 1)}…` : cleaned;
}
