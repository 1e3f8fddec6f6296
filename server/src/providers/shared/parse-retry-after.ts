/**
 * How long the upstream asks us to wait: `retry-after-ms` (milliseconds, float) first, then `retry-after` in seconds
 * (Anthropic, OpenAI and most vendors send seconds). The HTTP-date form is ignored: adapters are pure and have no
 * clock, and the pipeline then uses its own backoff.
 * @see https://www.rfc-editor.org/rfc/rfc9110#field.retry-after
 */
export function parseRetryAfterMs(headers: Readonly<Record<string, string>>): number | undefined {
  const milliseconds = parseNonNegative(headers['retry-after-ms']);
  if (milliseconds !== undefined) return Math.ceil(milliseconds);
  const seconds = parseNonNegative(headers['retry-after']);
  return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
}

/**
 * A protobuf JSON Duration ("34.4s", "0.5s", "2s") in milliseconds, as in Google's `RetryInfo.retryDelay`.
 * @see https://protobuf.dev/reference/protobuf/google.protobuf/#duration
 */
export function parseDurationMs(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match?.[1] === undefined ? undefined : Math.ceil(Number(match[1]) * 1000);
}

function parseNonNegative(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(?:\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
