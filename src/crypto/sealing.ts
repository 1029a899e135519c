/**
 * Request mode: visitors encrypt each file under its own secret and seal that secret to the
 * folder owner's X25519 public key, so only the owner's browser (holding the owner secret) can
 * open it. A visitor who has the folder link learns nothing from another visitor's upload, even
 * with the server's help, because the link's secret is not the key of those uploads.
 *
 * Everything the owner needs comes from a 16-byte owner secret by HKDF, so the owner link alone
 * restores the credentials in another browser. The labels below are part of the format.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { base64UrlDecode, base64UrlEncode } from './base64.js';
import { CryptoFormatError, IntegrityError } from './errors.js';
import { decodeSecret, SECRET_BYTES } from './folder.js';

const textEncoder = new TextEncoder();
const NO_SALT = new Uint8Array(0);
const AUTH_TOKEN_INFO = textEncoder.encode('webfolder owner auth token v1');
const KEY_PAIR_INFO = textEncoder.encode('webfolder owner x25519 key v1');
const SEAL_INFO_LABEL = textEncoder.encode('webfolder sealed secret v1\0');

const AUTH_TOKEN_BYTES = 32;
const X25519_KEY_BYTES = 32;
const SEAL_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;
const SEALED_BYTES = X25519_KEY_BYTES + SEAL_IV_BYTES + SECRET_BYTES + GCM_TAG_BYTES;

const X25519 = { name: 'X25519' } as const;

export interface OwnerCredentials {
  /** 32 bytes, base64url: what the owner's browser presents; the server keeps only its hash. */
  readonly authToken: string;
  /** The X25519 public key, 32 bytes base64url: published so visitors can seal to it. */
  readonly publicKey: string;
  /** The matching private key (the 32-byte X25519 scalar), for openSealedSecret. */
  readonly privateKey: Uint8Array;
}

async function hkdfBits(
  ikm: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  bytes: number,
) {
  const key = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, bytes * 8));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/**
 * The owner's auth token and X25519 key pair, all derived from the owner secret. The private side
 * is computed by `@noble/curves` (audited; RFC 7748, so the same keys and shared secrets as any
 * X25519), not by WebCrypto: WebKitGTK's WebCrypto refuses to import a private scalar whose first
 * byte is zero (1 owner secret in 256), which left that owner unable to create, claim or open a
 * folder in the browser. Visitors' ephemeral keys (sealSecret) stay in WebCrypto, which makes them.
 */
export async function deriveOwnerCredentials(ownerSecret: string): Promise<OwnerCredentials> {
  const secretBytes = decodeSecret(ownerSecret, 'owner secret');
  const [token, scalar] = await Promise.all([
    hkdfBits(secretBytes, NO_SALT, AUTH_TOKEN_INFO, AUTH_TOKEN_BYTES),
    hkdfBits(secretBytes, NO_SALT, KEY_PAIR_INFO, X25519_KEY_BYTES),
  ]);
  return {
    authToken: base64UrlEncode(token),
    publicKey: base64UrlEncode(x25519.getPublicKey(scalar)),
    privateKey: scalar,
  };
}

function decodePublicKey(publicKey: string): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array;
  try {
    bytes = base64UrlDecode(publicKey);
  } catch (error) {
    throw new CryptoFormatError(`owner public key is not base64url: ${(error as Error).message}`);
  }
  if (bytes.length !== X25519_KEY_BYTES)
    throw new CryptoFormatError(`owner public key is ${bytes.length} bytes, expected ${X25519_KEY_BYTES}`);
  return bytes as Uint8Array<ArrayBuffer>;
}

/**
 * The AES-256-GCM key for one sealed secret: HKDF-SHA256 over the X25519 shared secret, with both
 * public keys in the info so a sealed value is bound to the recipient it was made for.
 */
async function sealingKey(
  sharedSecret: BufferSource,
  ephemeralPublic: Uint8Array,
  recipientPublic: Uint8Array,
): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey('raw', sharedSecret, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: NO_SALT, info: concat(SEAL_INFO_LABEL, ephemeralPublic, recipientPublic) },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** Seals a file secret to the owner's public key: base64url of ephemeral public key || iv || ciphertext+tag. */
export async function sealSecret(ownerPublicKey: string, fileSecret: string): Promise<string> {
  const secretBytes = decodeSecret(fileSecret, 'file secret');
  const recipientPublic = decodePublicKey(ownerPublicKey);
  const ephemeral = (await crypto.subtle.generateKey(X25519, false, ['deriveBits'])) as CryptoKeyPair;
  let shared: ArrayBuffer;
  try {
    const recipient = await crypto.subtle.importKey('raw', recipientPublic, X25519, true, []);
    // WebCrypto refuses a small-order public key, whose shared secret would be all zeros and public.
    shared = await crypto.subtle.deriveBits({ name: 'X25519', public: recipient }, ephemeral.privateKey, 256);
  } catch {
    throw new CryptoFormatError('owner public key is not a usable X25519 public key');
  }
  const ephemeralPublic = new Uint8Array(await crypto.subtle.exportKey('raw', ephemeral.publicKey));
  const key = await sealingKey(shared, ephemeralPublic, recipientPublic);
  const iv = crypto.getRandomValues(new Uint8Array(SEAL_IV_BYTES));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, secretBytes));
  return base64UrlEncode(concat(ephemeralPublic, iv, ciphertext));
}

/** Opens what sealSecret made for this private key; IntegrityError for any other key or an altered value. */
export async function openSealedSecret(privateKey: Uint8Array, sealed: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = base64UrlDecode(sealed);
  } catch (error) {
    throw new CryptoFormatError(`sealed key is not base64url: ${(error as Error).message}`);
  }
  if (bytes.length !== SEALED_BYTES)
    throw new CryptoFormatError(`sealed key is ${bytes.length} bytes, expected ${SEALED_BYTES}`);
  const ephemeralPublic = bytes.slice(0, X25519_KEY_BYTES);
  const iv = bytes.slice(X25519_KEY_BYTES, X25519_KEY_BYTES + SEAL_IV_BYTES);
  const ciphertext = bytes.slice(X25519_KEY_BYTES + SEAL_IV_BYTES);
  const recipientPublic = x25519.getPublicKey(privateKey);
  try {
    // noble refuses a small-order ephemeral key, whose shared secret would be all zeros and public.
    const shared = x25519.getSharedSecret(privateKey, ephemeralPublic) as Uint8Array<ArrayBuffer>;
    const key = await sealingKey(shared, ephemeralPublic, recipientPublic);
    return base64UrlEncode(new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, ciphertext)));
  } catch {
    throw new IntegrityError('sealed key does not open with this owner key (another owner, or altered)');
  }
}
