import type { IncomingMessage } from 'node:http';

export type JsonBody = { isValid: true; value: unknown } | { isValid: false; reason: 'invalid-json' | 'too-large' };

const maximumBodyBytes = 64 * 1024 * 1024;

/** The request body parsed as JSON: the simulator's only JSON.parse of untrusted input. */
export async function readJsonBody(request: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let byteCount = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    byteCount += buffer.length;
    if (byteCount > maximumBodyBytes) return { isValid: false, reason: 'too-large' };
    chunks.push(buffer);
  }
  try {
    return { isValid: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { isValid: false, reason: 'invalid-json' };
  }
}
