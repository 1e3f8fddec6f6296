import { createHmac, timingSafeEqual } from 'node:crypto';

export type HmacEncoding = 'hex' | 'base64';

export function computeHmacSha256(input: { key: string; message: Buffer; encoding: HmacEncoding }): string {
  return createHmac('sha256', input.key).update(input.message).digest(input.encoding);
}

/** Compares a presented signature with the expected one in constant time (a length mismatch is simply false). */
export function isSignatureMatch(expected: string, presented: string): boolean {
  const expectedBytes = Buffer.from(expected, 'utf8');
  const presentedBytes = Buffer.from(presented, 'utf8');
  if (expectedBytes.length !== presentedBytes.length) return false;
  return timingSafeEqual(expectedBytes, presentedBytes);
}
