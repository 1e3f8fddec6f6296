import type { Random } from './random.ts';

/** Base64 of seeded random bytes: signatures, encrypted content and other values clients must echo unchanged. */
export function createOpaqueToken(random: Random, byteCount: number): string {
  const bytes = Buffer.alloc(byteCount);
  for (let index = 0; index < byteCount; index += 1) bytes[index] = random.nextInt(256);
  return bytes.toString('base64');
}
