import { base64ToBytes, bytesToBase64 } from './base64.ts';

/**
 * The browser chat's key hierarchy, all in WebCrypto (docs/encrypted-chat.md):
 *
 *   passphrase ──PBKDF2-SHA-256, 600,000+ iterations, 16-byte salt──► wrapping key (AES-GCM 256, never stored)
 *   account key  = random AES-GCM 256, stored wrapped under the wrapping key
 *   conversation key = random AES-GCM 256 per conversation, stored wrapped under the account key
 *   title, body  = AES-GCM under the conversation key
 *
 * Every AES-GCM operation uses a fresh random 96-bit nonce, stored in front of its ciphertext, and additional data
 * naming what the ciphertext is (`v1|vault`, `v1|<conversation id>|key|title|body`), so the server cannot swap a
 * ciphertext into another place without the decryption failing. Unwrapped keys are non-extractable: page script
 * can use them but not read their bytes.
 */

export const kdfName = 'PBKDF2-SHA-256';
/** OWASP's minimum for PBKDF2-HMAC-SHA-256 (2023). */
export const minimumIterations = 600_000;

const aesGcm = 'AES-GCM';
const nonceBytes = 12;
const encoder = new TextEncoder();

/** The passphrase did not unwrap the account key: wrong passphrase (or a damaged vault). */
export class WrongPassphraseError extends Error {
  constructor() {
    super('wrong passphrase');
    this.name = 'WrongPassphraseError';
  }
}

export type SealedField = 'title' | 'body';

export type NewVault = {
  accountKey: CryptoKey;
  stored: { kdf: typeof kdfName; iterations: number; salt: string; wrapped_account_key: string };
};

async function deriveWrappingKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  const material = await crypto.subtle.importKey('raw', encoder.encode(passphrase.normalize('NFC')), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: aesGcm, length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

/** Wraps `key` under `wrappingKey` with a fresh nonce: base64 of nonce || ciphertext. */
async function wrap(key: CryptoKey, wrappingKey: CryptoKey, additionalData: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(nonceBytes));
  const wrapped = await crypto.subtle.wrapKey('raw', key, wrappingKey, {
    name: aesGcm,
    iv,
    additionalData: encoder.encode(additionalData),
  });
  return bytesToBase64(concat(iv, new Uint8Array(wrapped)));
}

async function unwrap(input: {
  wrapped: string;
  wrappingKey: CryptoKey;
  additionalData: string;
  usages: KeyUsage[];
}): Promise<CryptoKey> {
  const bytes = base64ToBytes(input.wrapped);
  return crypto.subtle.unwrapKey(
    'raw',
    bytes.slice(nonceBytes),
    input.wrappingKey,
    { name: aesGcm, iv: bytes.slice(0, nonceBytes), additionalData: encoder.encode(input.additionalData) },
    { name: aesGcm, length: 256 },
    false,
    input.usages,
  );
}

/** A new account key and its stored form, wrapped under the key derived from the chosen passphrase. */
export async function createVault(passphrase: string, iterations = minimumIterations): Promise<NewVault> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const wrappingKey = await deriveWrappingKey(passphrase, salt, iterations);
  const exportable = await crypto.subtle.generateKey({ name: aesGcm, length: 256 }, true, ['wrapKey', 'unwrapKey']);
  const wrappedAccountKey = await wrap(exportable, wrappingKey, 'v1|vault');
  const accountKey = await unwrap({
    wrapped: wrappedAccountKey,
    wrappingKey,
    additionalData: 'v1|vault',
    usages: ['wrapKey', 'unwrapKey'],
  });
  return {
    accountKey,
    stored: { kdf: kdfName, iterations, salt: bytesToBase64(salt), wrapped_account_key: wrappedAccountKey },
  };
}

/** The account key, unwrapped with the passphrase; `WrongPassphraseError` when it does not fit. */
export async function unlockVault(
  passphrase: string,
  vault: { iterations: number; salt: string; wrapped_account_key: string },
): Promise<CryptoKey> {
  const wrappingKey = await deriveWrappingKey(passphrase, base64ToBytes(vault.salt), vault.iterations);
  try {
    return await unwrap({
      wrapped: vault.wrapped_account_key,
      wrappingKey,
      additionalData: 'v1|vault',
      usages: ['wrapKey', 'unwrapKey'],
    });
  } catch {
    throw new WrongPassphraseError();
  }
}

/** A new conversation key, and its form wrapped under the account key for storage. */
export async function createConversationKey(
  accountKey: CryptoKey,
  conversationId: string,
): Promise<{ key: CryptoKey; wrapped: string }> {
  const exportable = await crypto.subtle.generateKey({ name: aesGcm, length: 256 }, true, ['encrypt', 'decrypt']);
  const wrapped = await wrap(exportable, accountKey, `v1|${conversationId}|key`);
  return { key: await openConversationKey(accountKey, conversationId, wrapped), wrapped };
}

export function openConversationKey(
  accountKey: CryptoKey,
  conversationId: string,
  wrapped: string,
): Promise<CryptoKey> {
  return unwrap({
    wrapped,
    wrappingKey: accountKey,
    additionalData: `v1|${conversationId}|key`,
    usages: ['encrypt', 'decrypt'],
  });
}

/** Encrypts text for storage: base64 of nonce || AES-GCM ciphertext and tag. */
export async function sealText(
  key: CryptoKey,
  input: { conversationId: string; field: SealedField; text: string },
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(nonceBytes));
  const ciphertext = await crypto.subtle.encrypt(
    { name: aesGcm, iv, additionalData: encoder.encode(`v1|${input.conversationId}|${input.field}`) },
    key,
    encoder.encode(input.text),
  );
  return bytesToBase64(concat(iv, new Uint8Array(ciphertext)));
}

export async function openText(
  key: CryptoKey,
  input: { conversationId: string; field: SealedField; sealed: string },
): Promise<string> {
  const bytes = base64ToBytes(input.sealed);
  const plaintext = await crypto.subtle.decrypt(
    {
      name: aesGcm,
      iv: bytes.slice(0, nonceBytes),
      additionalData: encoder.encode(`v1|${input.conversationId}|${input.field}`),
    },
    key,
    bytes.slice(nonceBytes),
  );
  return new TextDecoder().decode(plaintext);
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}
