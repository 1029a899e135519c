/**
 * The plaintexts of test/vectors/rfc8188.json are generated, not stored: byte i of the plaintext
 * of length n is (i * 131 + n) mod 256. Another implementation can rebuild them from this rule.
 */
export function vectorPlaintext(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 131 + length) & 0xff;
  return bytes;
}
