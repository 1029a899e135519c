/**
 * The encryption format shared by the browser site, the client library and the CLI.
 * docs/encryption.md is its specification; test/vectors/rfc8188.json holds its test vectors.
 */
export { CryptoFormatError, IntegrityError } from './errors.js';
export { base64UrlEncode, base64UrlDecode, base64Encode, base64DecodeEither } from './base64.js';
export {
  SECRET_BYTES,
  type FolderKey,
  generateSecret,
  importSecret,
  encryptChunk,
  decryptChunk,
  encryptText,
  decryptText,
  createSke,
  checkSke,
} from './folder.js';
export { type OwnerCredentials, deriveOwnerCredentials, sealSecret, openSealedSecret } from './sealing.js';
