/**
 * The encryption format shared by the browser site, the client library and the CLI.
 * docs/encryption.md is its specification; test/vectors/rfc8188.json holds its test vectors.
 */

export { base64DecodeEither, base64Encode, base64UrlDecode, base64UrlEncode } from './base64.js';
export { CryptoFormatError, IntegrityError } from './errors.js';
export {
  checkSke,
  createSke,
  decryptChunk,
  decryptChunkRecords,
  decryptText,
  encryptChunk,
  encryptChunkParts,
  encryptText,
  type FolderKey,
  generateSecret,
  importSecret,
  SECRET_BYTES,
} from './folder.js';
export {
  checkPasswordParams,
  newPasswordParams,
  PASSWORD_KDF,
  type PasswordParams,
  passwordSecret,
} from './password.js';
export { deriveOwnerCredentials, type OwnerCredentials, openSealedSecret, sealSecret } from './sealing.js';
