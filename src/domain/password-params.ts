/**
 * What the server keeps of a folder's password (`FolderInfo.password`): the parameters of the key
 * derivation (src/crypto/password.ts), never a hash of the password. Stated here once, for the
 * contract (which checks its shape) and the crypto (which derives with it) alike.
 */
export interface PasswordParams {
  readonly kdf: 'scrypt';
  /** scrypt cost: a power of two from 2^14 to 2^20. */
  readonly N: number;
  /** scrypt block size, 1..16. */
  readonly r: number;
  /** scrypt parallelism, 1..4. */
  readonly p: number;
  /** 16 random bytes, base64url without padding (22 characters). */
  readonly salt: string;
}
