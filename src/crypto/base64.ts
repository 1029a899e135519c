/**
 * Base64 without Buffer or atob, so the same code runs in Node and the browser, and strict: a
 * decoder that silently skipped stray characters or ignored leftover bits would let two different
 * texts name the same key, or let an altered value decode to something.
 *
 * Two alphabets are in use on the wire (see docs/encryption.md): secrets, public keys and sealed
 * keys are base64url without padding; encrypted names and `ske` are standard base64 with padding,
 * as file.kiwi's own clients write them. Readers of names and `ske` accept either alphabet.
 */
import { CryptoFormatError } from './errors.js';

const STANDARD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Character code -> 6-bit value for both alphabets at once; -1 for anything else. */
const DECODE_TABLE = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) {
    table[STANDARD_ALPHABET.charCodeAt(i)] = i;
    table[URL_ALPHABET.charCodeAt(i)] = i;
  }
  return table;
})();

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let text = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    text += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    text += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    text += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? '=' : '');
  }
  return text;
}

/** base64url without padding (RFC 4648 section 5): secrets, public keys, sealed keys, tokens. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return encode(bytes, URL_ALPHABET, false);
}

/** Standard base64 with padding (RFC 4648 section 4): encrypted names and `ske`, as file.kiwi writes them. */
export function base64Encode(bytes: Uint8Array): string {
  return encode(bytes, STANDARD_ALPHABET, true);
}

/**
 * Decodes base64 in either alphabet, padded or not. Rejects anything else: characters outside the
 * alphabets, a mix of the two alphabets' special characters, misplaced padding, a length no
 * encoding produces, and non-zero leftover bits (so every byte string has exactly one accepted
 * text per alphabet and padding choice).
 */
export function base64DecodeEither(text: string): Uint8Array {
  const unpadded = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  if (unpadded.length !== text.length && text.length % 4 !== 0) {
    throw new CryptoFormatError('base64 padding does not complete a 4-character group');
  }
  if (unpadded.length % 4 === 1)
    throw new CryptoFormatError(`base64 text of ${unpadded.length} characters cannot be whole bytes`);
  if (/[+/]/.test(unpadded) && /[-_]/.test(unpadded)) {
    throw new CryptoFormatError('base64 text mixes the standard and URL-safe alphabets');
  }
  const bytes = new Uint8Array(Math.floor((unpadded.length * 3) / 4));
  let accumulator = 0;
  let bits = 0;
  let written = 0;
  for (let i = 0; i < unpadded.length; i++) {
    const code = unpadded.charCodeAt(i);
    const value = code < 128 ? DECODE_TABLE[code]! : -1;
    if (value < 0) throw new CryptoFormatError(`base64 text has an invalid character at position ${i}`);
    accumulator = ((accumulator << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[written++] = (accumulator >> bits) & 0xff;
    }
  }
  if ((accumulator & ((1 << bits) - 1)) !== 0)
    throw new CryptoFormatError('base64 text has non-zero bits after its last byte');
  return bytes;
}

/** Decodes base64url without padding, the only form secrets, keys and sealed keys take. */
export function base64UrlDecode(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text))
    throw new CryptoFormatError('not base64url: only A-Z a-z 0-9 - _ are allowed, without padding');
  return base64DecodeEither(text);
}
