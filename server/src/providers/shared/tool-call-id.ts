import { createHash } from 'node:crypto';

/**
 * Tool-call ids the gateway gives clients may carry the vendor's reasoning signature, so that a later request that
 * replays the assistant tool call (OpenAI clients keep only `id`, `name` and `arguments`) can hand the signature back:
 * Gemini's `thoughtSignature` (required for function calling on Gemini 3) and Anthropic's thinking-block `signature`.
 *
 * Format: `<vendor or derived id>__sig_<signature as base64url>`. Signatures are canonical base64, rewritten to the
 * URL-safe alphabet without padding, so the id stays within `[A-Za-z0-9_-]` (the alphabet Anthropic requires of ids).
 * A signature that is not canonical base64 uses `__sigx_` and the base64url of its UTF-8 bytes instead.
 */
const base64Marker = '__sig_';
const textMarker = '__sigx_';
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

/** A deterministic `call_…` id for a vendor that sends none: the same response always yields the same ids. */
export function deriveToolCallId(parts: ReadonlyArray<string | number>): string {
  return `call_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24)}`;
}

export function attachSignature(id: string, signature: string | undefined): string {
  if (signature === undefined || signature === '') return id;
  if (signature.length % 4 === 0 && base64Pattern.test(signature)) {
    return `${id}${base64Marker}${signature.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_')}`;
  }
  return `${id}${textMarker}${Buffer.from(signature, 'utf8').toString('base64url')}`;
}

/** The id as the vendor knows it, and the signature it carried (undefined for ids from elsewhere). */
export function splitSignature(id: string): { id: string; signature: string | undefined } {
  const textAt = id.indexOf(textMarker);
  if (textAt !== -1) {
    return {
      id: id.slice(0, textAt),
      signature: Buffer.from(id.slice(textAt + textMarker.length), 'base64url').toString('utf8'),
    };
  }
  const base64At = id.indexOf(base64Marker);
  if (base64At === -1) return { id, signature: undefined };
  const encoded = id
    .slice(base64At + base64Marker.length)
    .replaceAll('-', '+')
    .replaceAll('_', '/');
  return { id: id.slice(0, base64At), signature: encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=') };
}
