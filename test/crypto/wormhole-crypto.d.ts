// wormhole-crypto 0.3.1 ships no types: the parts the reference wrapper uses.
declare module 'wormhole-crypto' {
  export class Keychain {
    constructor(key?: Uint8Array | string | null, salt?: Uint8Array | string | null);
    readonly keyB64: string;
    encryptStream(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>>;
    decryptStream(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>>;
  }
}

declare module 'wormhole-crypto/lib/ece.js' {
  export function encryptStream(
    input: ReadableStream<Uint8Array>,
    secretKey: CryptoKey,
    recordSize?: number,
    salt?: Uint8Array,
  ): ReadableStream<Uint8Array>;
}
