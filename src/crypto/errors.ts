/**
 * The two ways a value can fail to decrypt. Neither is ever returned as data: callers show the error
 * and stop. Messages name what is wrong (which record, which header field) so a person or a log can
 * tell a wrong key from a truncated upload.
 */

/** The value is not in the expected shape: bad base64, a header this format never writes, a wrong length. */
export class CryptoFormatError extends Error {
  override readonly name = 'CryptoFormatError';
}

/** The value has the right shape but did not authenticate: wrong key, altered, truncated or extended. */
export class IntegrityError extends Error {
  override readonly name = 'IntegrityError';
}
