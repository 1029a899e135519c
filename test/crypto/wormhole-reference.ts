/**
 * wormhole-crypto 0.3.1, the library file.kiwi's clients use, driven the way those clients drive
 * it: the reference that our encoder is checked against in tests, test vectors and benchmarks.
 */
import { Keychain } from 'wormhole-crypto';
import { encryptStream } from 'wormhole-crypto/lib/ece.js';

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** One RFC 8188 message from the library: under a fresh random salt, or the salt given (vectors only). */
export async function referenceEncrypt(secret: string, plaintext: Uint8Array, salt?: Uint8Array): Promise<Uint8Array> {
  if (salt === undefined) return collect(await new Keychain(secret).encryptStream(streamOf(plaintext)));
  // Keychain.encryptStream cannot take a salt; the function it wraps can.
  const secretKey = await crypto.subtle.importKey('raw', base64UrlBytes(secret), 'HKDF', false, [
    'deriveBits',
    'deriveKey',
  ]);
  return collect(encryptStream(streamOf(plaintext), secretKey, 65_536, salt));
}

export async function referenceDecrypt(secret: string, message: Uint8Array): Promise<Uint8Array> {
  return collect(await new Keychain(secret).decryptStream(streamOf(message)));
}

/** Encrypted text exactly as file.kiwi's Node SDK writes names and `ske`: btoa, standard alphabet, padded. */
export async function referenceEncryptText(secret: string, text: string, salt?: Uint8Array): Promise<string> {
  const message = await referenceEncrypt(secret, new TextEncoder().encode(text), salt);
  return btoa(String.fromCharCode(...message));
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
}
