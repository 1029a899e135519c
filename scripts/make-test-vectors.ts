/**
 * Writes test/vectors/rfc8188.json: run `npx tsx scripts/make-test-vectors.ts`.
 *
 * Chunk, name and ske vectors come from wormhole-crypto 0.3.1 (the reference) with fixed secrets
 * and fixed salts, so every implementation of the format must reproduce them byte for byte, in
 * Node (test/crypto/vectors.test.ts) and in the browser. Request-mode vectors have no reference
 * library: they are webfolder's own output, kept so that any change to that format is noticed.
 */

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { base64Encode, base64UrlEncode, deriveOwnerCredentials, sealSecret } from '../src/crypto/index.js';
import { referenceEncrypt, referenceEncryptText } from '../test/crypto/wormhole-reference.js';
import { vectorPlaintext } from '../test/vectors/pattern.js';

const OUTPUT = new URL('../test/vectors/rfc8188.json', import.meta.url);

/** Fixed bytes that differ per use: byte i is (i * step + offset) mod 256. */
function fixedBytes(length: number, step: number, offset: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * step + offset) & 0xff);
}
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const folderSecret = base64UrlEncode(fixedBytes(16, 1, 0));
const otherSecret = base64UrlEncode(fixedBytes(16, 29, 200));
/** Boundary sizes whose whole ciphertext is stored; the others are stored as length + SHA-256. */
const STORED_IN_FULL = new Set([1, 65_519, 65_520, 131_039]);
const CHUNK_SIZES = [1, 65_518, 65_519, 65_520, 131_038, 131_039, 10 * 1024 * 1024 + 3];

const chunks = [];
for (const [index, size] of CHUNK_SIZES.entries()) {
  const secret = index % 2 === 0 ? folderSecret : otherSecret;
  const salt = fixedBytes(16, 7, 16 * index + 1);
  const ciphertext = await referenceEncrypt(secret, vectorPlaintext(size), salt);
  chunks.push({
    secret,
    saltHex: hex(salt),
    plaintextLength: size,
    ciphertextLength: ciphertext.length,
    ciphertextSha256Hex: createHash('sha256').update(ciphertext).digest('hex'),
    ...(STORED_IN_FULL.has(size) ? { ciphertextBase64: base64Encode(ciphertext) } : {}),
  });
}

const textCases = [
  { kind: 'ske', secret: folderSecret, text: folderSecret },
  { kind: 'ske', secret: otherSecret, text: otherSecret },
  { kind: 'filename', secret: folderSecret, text: 'report.pdf' },
  { kind: 'filename', secret: folderSecret, text: 'Überweisung – 東京 📄.txt' },
  { kind: 'filename', secret: otherSecret, text: `${'long name '.repeat(30)}.bin` },
  { kind: 'mimetype', secret: folderSecret, text: 'application/pdf' },
];
const texts = [];
for (const [index, { kind, secret, text }] of textCases.entries()) {
  const salt = fixedBytes(16, 13, 16 * index + 3);
  texts.push({ kind, secret, text, saltHex: hex(salt), value: await referenceEncryptText(secret, text, salt) });
}

const ownerSecret = base64UrlEncode(fixedBytes(16, 3, 100));
const owner = await deriveOwnerCredentials(ownerSecret);
const fileSecret = base64UrlEncode(fixedBytes(16, 5, 50));

const vectors = {
  description:
    'Test vectors for docs/encryption.md. chunks and texts: made by wormhole-crypto 0.3.1 with the fixed salt given; an implementation must produce exactly these bytes from (secret, salt, plaintext) and decrypt them back. requestMode: made by webfolder itself (no reference library).',
  plaintextRule: 'byte i of the plaintext of a chunk vector with plaintextLength n is (i * 131 + n) mod 256',
  encodings: {
    secret: 'base64url without padding (16 bytes)',
    ciphertextBase64: 'standard base64 with padding',
    textValue:
      'standard base64 with padding of the RFC 8188 message of the UTF-8 text, as file.kiwi clients write filename, mimetype and ske',
  },
  chunks,
  texts,
  requestMode: {
    ownerSecret,
    authToken: owner.authToken,
    publicKey: owner.publicKey,
    sealed: [{ fileSecret, sealed: await sealSecret(owner.publicKey, fileSecret) }],
  },
};
writeFileSync(OUTPUT, `${JSON.stringify(vectors, null, 2)}\n`);
console.log(`wrote ${OUTPUT.pathname}`);
