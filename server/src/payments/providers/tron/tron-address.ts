import { HDKey } from '@scure/bip32';
import { base58check } from '@scure/base';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';

/**
 * TRON deposit addresses derived from the operator's extended public key (BIP-32), so the gateway can receive but
 * never spend: the private keys stay in the operator's wallet. The key is the account level of BIP-44 with TRON's
 * coin type 195 (m/44'/195'/account'), as wallets export it; order `i` gets the external chain's child `0/i`
 * (non-hardened, so the public key alone derives it). An address is 0x41 ‖ last 20 bytes of Keccak-256 of the
 * uncompressed public key without its 0x04 prefix, in Base58Check (double SHA-256 checksum).
 */
export type TronAccountKey = { readonly key: HDKey };

/** The largest non-hardened child index (BIP-32: indexes from 2^31 are hardened and need the private key). */
export const maxDerivationIndex = 0x7fff_ffff;

const tronBase58 = base58check(sha256);
const TRON_ADDRESS_PREFIX = 0x41;

/** An operator's extended public key that is not one: start-up refuses it with this message. */
export class TronXpubError extends Error {
  constructor(reason: string) {
    super(
      `USDT_TRON_XPUB is not a usable extended public key (${reason}). Export the account-level xpub of m/44'/195'/0' from your wallet; never its private key or seed.`,
    );
    this.name = 'TronXpubError';
  }
}

/** Reads the operator's xpub; throws `TronXpubError` for anything but a public, well-formed BIP-32 key. */
export function parseTronXpub(text: string): TronAccountKey {
  const trimmed = text.trim();
  if (/^[a-z]prv/i.test(trimmed)) throw new TronXpubError('it is a private key: the gateway must never hold one');
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(trimmed);
  } catch (error) {
    throw new TronXpubError(error instanceof Error ? error.message : 'it does not decode');
  }
  if (key.privateKey) throw new TronXpubError('it is a private key: the gateway must never hold one');
  if (!key.publicKey) throw new TronXpubError('it holds no public key');
  return { key };
}

/** The TRON address of child `0/index` of the account key. */
export function deriveTronAddress(account: TronAccountKey, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > maxDerivationIndex) {
    throw new RangeError(`derivation index ${index} is not a non-hardened index`);
  }
  const child = account.key.deriveChild(0).deriveChild(index);
  if (!child.publicKey) throw new Error('derived key has no public key');
  return tronAddressFromPublicKey(child.publicKey);
}

function tronAddressFromPublicKey(compressed: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(compressed).toBytes(false);
  const hash = keccak_256(uncompressed.subarray(1));
  const payload = new Uint8Array(21);
  payload[0] = TRON_ADDRESS_PREFIX;
  payload.set(hash.subarray(12), 1);
  return tronBase58.encode(payload);
}

/** Whether `text` is a Base58Check TRON address (prefix 0x41, 21 bytes). */
export function isTronAddress(text: string): boolean {
  try {
    const bytes = tronBase58.decode(text);
    return bytes.length === 21 && bytes[0] === TRON_ADDRESS_PREFIX;
  } catch {
    return false;
  }
}
