/**
 * RFC 8188 "aes128gcm" encrypted content encoding of one whole in-memory message, on WebCrypto
 * alone so it runs unchanged in Node 20 and in browsers.
 *
 * It writes exactly what wormhole-crypto 0.3.1 (the library file.kiwi's clients use) writes, so
 * either side reads the other's messages:
 * - header: 16-byte random salt, record size 65536 as uint32 big-endian, key id length 0 (no key id);
 * - content-encryption key = HKDF-SHA256(salt, IKM = the 16-byte secret, info "Content-Encoding: aes128gcm\0"), 16 bytes;
 *   nonce base = HKDF-SHA256(salt, same IKM, info "Content-Encoding: nonce\0"), 12 bytes;
 *   the nonce of record i is the nonce base with i XORed into its last 4 bytes (big-endian);
 * - records of 65519 plaintext bytes + delimiter 0x01, the last one shorter + delimiter 0x02,
 *   each sealed with AES-128-GCM (16-byte tag), so a non-final record is exactly 65536 bytes.
 *
 * Speed: wormhole-crypto awaits one record at a time through a stream pipeline. Here both HKDF
 * derivations run once per message and many records' AES-GCM calls are in flight at once, so
 * implementations that run WebCrypto jobs on worker threads (Node's thread pool, browsers) keep
 * them all busy, and each record's result is copied once, into its place in a single output buffer
 * (or not at all: `encryptMessageParts` answers the records as WebCrypto gave them).
 */
import {
  encryptedLength,
  RFC8188_HEADER_LENGTH as HEADER_LENGTH,
  RFC8188_PLAINTEXT_PER_RECORD as PLAINTEXT_PER_RECORD,
  RFC8188_RECORD_OVERHEAD as RECORD_OVERHEAD,
  RFC8188_RECORD_SIZE as RECORD_SIZE,
} from '../domain/chunk-plan.js';
import { CryptoFormatError, IntegrityError } from './errors.js';

export const SALT_LENGTH = 16;
const TAG_LENGTH = 16;
/** The AES-GCM tag closing every record. */
export const RFC8188_TAG_LENGTH = TAG_LENGTH;

const NONCE_LENGTH = 12;
export const DELIMITER_MORE_RECORDS = 1;
export const DELIMITER_FINAL_RECORD = 2;

const textEncoder = new TextEncoder();
/** HKDF `info` of the content-encryption key and of the nonce base (exported for the Node decryptor). */
export const CONTENT_KEY_INFO = textEncoder.encode('Content-Encoding: aes128gcm\0');
export const NONCE_INFO = textEncoder.encode('Content-Encoding: nonce\0');

interface MessageKeys {
  readonly contentKey: CryptoKey;
  readonly nonceBase: Uint8Array<ArrayBuffer>;
}

async function deriveMessageKeys(secretKey: CryptoKey, salt: Uint8Array<ArrayBuffer>): Promise<MessageKeys> {
  const [contentKey, nonceBits] = await Promise.all([
    crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt, info: CONTENT_KEY_INFO },
      secretKey,
      { name: 'AES-GCM', length: 128 },
      false,
      ['encrypt', 'decrypt'],
    ),
    crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info: NONCE_INFO }, secretKey, NONCE_LENGTH * 8),
  ]);
  return { contentKey, nonceBase: new Uint8Array(nonceBits) };
}

/**
 * The nonces of records `first`..`first + count - 1`, 12 bytes each, in one buffer (each call's iv
 * is a view into it): RFC 8188 XORs the 96-bit record sequence number into the nonce base; for fewer
 * than 2^32 records (2^32 records are 256 TiB) only the last 4 bytes change.
 */
export function recordNonces(
  nonceBase: Uint8Array<ArrayBuffer>,
  first: number,
  count: number,
): Uint8Array<ArrayBuffer> {
  const nonces = new Uint8Array(count * NONCE_LENGTH);
  const tail = ((nonceBase[8]! << 24) | (nonceBase[9]! << 16) | (nonceBase[10]! << 8) | nonceBase[11]!) >>> 0;
  for (let j = 0, at = 0; j < count; j++, at += NONCE_LENGTH) {
    nonces.set(nonceBase, at);
    const x = (tail ^ (first + j)) >>> 0;
    nonces[at + 8] = x >>> 24;
    nonces[at + 9] = (x >>> 16) & 0xff;
    nonces[at + 10] = (x >>> 8) & 0xff;
    nonces[at + 11] = x & 0xff;
  }
  return nonces;
}

/**
 * Records issued to WebCrypto in one batch. All of a batch's calls are made at once, with no await
 * between them (an await per 64 KiB record cost more CPU than the cipher in Chromium's trace), and the next batch is issued before this one's results are copied out, so the cipher threads
 * never wait for the copying. Two batches in flight hold at most 16 MiB of results, whatever the
 * chunk size (a chunk may be 105 MiB).
 */
const RECORDS_PER_BATCH = 128;

/**
 * Runs `issue(i)` for records 0..records-1 in batches and hands each result, in record order, to
 * `take(i, result)`. A record whose call fails gives null to `take`, which throws the record's error:
 * the first failing record in order is the one reported, whichever thread finished first, and no
 * batch is issued after it.
 */
async function eachRecord(
  records: number,
  issue: (sequence: number) => Promise<ArrayBuffer>,
  take: (sequence: number, result: ArrayBuffer | null) => void,
): Promise<void> {
  const batch = (first: number): Promise<Array<ArrayBuffer | null>> => {
    const calls = new Array<Promise<ArrayBuffer | null>>(Math.min(RECORDS_PER_BATCH, records - first));
    for (let j = 0; j < calls.length; j++) calls[j] = issue(first + j).catch(() => null);
    return Promise.all(calls);
  };
  let pending = batch(0);
  for (let first = 0; first < records; first += RECORDS_PER_BATCH) {
    const results = await pending;
    if (first + RECORDS_PER_BATCH < records) pending = batch(first + RECORDS_PER_BATCH);
    // When take throws, a batch already issued settles on its own: nothing waits for it or reads it.
    for (let j = 0; j < results.length; j++) take(first + j, results[j]!);
  }
}

function gcmParams(iv: Uint8Array<ArrayBuffer>): AesGcmParams {
  return { name: 'AES-GCM', iv, tagLength: TAG_LENGTH * 8 };
}

/**
 * Seals every record of one message under `salt` and hands each record's ciphertext, in order, to
 * `take`; answers the 21-byte header. Each record's input is its plaintext plus a delimiter byte,
 * assembled in one small buffer reused for every record: WebCrypto copies its input before
 * encrypt() returns (WebCrypto spec, SubtleCrypto.encrypt step 2), so the next record can be staged
 * at once, and a buffer that stays in the CPU cache is cheap to fill (handing WebCrypto the
 * plaintext itself, its next byte briefly swapped for the delimiter, measured no cheaper in Chromium).
 */
async function sealRecords(
  secretKey: CryptoKey,
  plaintext: Uint8Array,
  salt: Uint8Array,
  take: (sequence: number, ciphertext: ArrayBuffer) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  const header = sealHeader(plaintext.length, salt);
  const keys = await deriveMessageKeys(secretKey, header.slice(0, SALT_LENGTH));
  const records = Math.ceil(plaintext.length / PLAINTEXT_PER_RECORD);
  const staging = new Uint8Array(PLAINTEXT_PER_RECORD + 1);
  const nonces = recordNonces(keys.nonceBase, 0, records);
  await eachRecord(
    records,
    (i) => {
      const plainStart = i * PLAINTEXT_PER_RECORD;
      const plainLength = Math.min(PLAINTEXT_PER_RECORD, plaintext.length - plainStart);
      staging.set(plaintext.subarray(plainStart, plainStart + plainLength));
      staging[plainLength] = i === records - 1 ? DELIMITER_FINAL_RECORD : DELIMITER_MORE_RECORDS;
      const iv = nonces.subarray(i * NONCE_LENGTH, (i + 1) * NONCE_LENGTH);
      return crypto.subtle.encrypt(gcmParams(iv), keys.contentKey, staging.subarray(0, plainLength + 1));
    },
    (i, ciphertext) => {
      if (ciphertext === null) throw new Error(`record ${i + 1} of ${records} could not be encrypted`);
      take(i, ciphertext);
    },
  );
  return header;
}

/**
 * The 21-byte header of a message of `plaintextLength` bytes under `salt` (record size 65536, no key
 * id), after the checks every encryptor makes: at least 1 byte (wormhole-crypto would write a bare
 * header, which is not a valid RFC 8188 message, having no final record, and cannot be told apart
 * from a message truncated after its header) and a salt of SALT_LENGTH bytes. Shared with the Node
 * client's encryptor (src/client/node/encrypt.ts).
 */
export function sealHeader(plaintextLength: number, salt: Uint8Array): Uint8Array<ArrayBuffer> {
  if (plaintextLength === 0) throw new RangeError('cannot encrypt an empty value: files and names are never empty');
  if (salt.length !== SALT_LENGTH) throw new RangeError(`salt must be ${SALT_LENGTH} bytes`);
  const header = new Uint8Array(HEADER_LENGTH);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(SALT_LENGTH, RECORD_SIZE);
  // header[20], the key id length, stays 0.
  return header;
}

/**
 * Encrypts `plaintext` (at least 1 byte) as one message under the salt given. The salt must be
 * fresh random bytes for every message; only test vectors pass a fixed one.
 */
export async function encryptMessageWithSalt(
  secretKey: CryptoKey,
  plaintext: Uint8Array,
  salt: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  // Sized once the plaintext is known to be valid; each ciphertext is copied straight to its place.
  let message: Uint8Array<ArrayBuffer> | null = null;
  const header = await sealRecords(secretKey, plaintext, salt, (i, ciphertext) => {
    message ??= new Uint8Array(encryptedLength(plaintext.length));
    message.set(new Uint8Array(ciphertext), HEADER_LENGTH + i * RECORD_SIZE);
  });
  message!.set(header, 0);
  return message!;
}

/** Encrypts `plaintext` (at least 1 byte) as one message under a fresh random salt. */
export function encryptMessage(secretKey: CryptoKey, plaintext: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return encryptMessageWithSalt(secretKey, plaintext, crypto.getRandomValues(new Uint8Array(SALT_LENGTH)));
}

/**
 * The same message as `encryptMessage`, as its pieces in order: the header, then each record's
 * ciphertext as WebCrypto answered it. Whoever sends them as one body (a browser's `Blob` built from
 * these parts) copies each piece once, where `encryptMessage` first copies every record into one
 * buffer and the body copies that again.
 */
export async function encryptMessageParts(
  secretKey: CryptoKey,
  plaintext: Uint8Array,
): Promise<Array<Uint8Array<ArrayBuffer> | ArrayBuffer>> {
  const parts: Array<Uint8Array<ArrayBuffer> | ArrayBuffer> = [];
  const header = await sealRecords(
    secretKey,
    plaintext,
    crypto.getRandomValues(new Uint8Array(SALT_LENGTH)),
    (i, c) => {
      parts[i + 1] = c;
    },
  );
  parts[0] = header;
  return parts;
}

/**
 * Length of the data in a decrypted record: RFC 8188 allows zero padding after the delimiter, so
 * the delimiter is the last non-zero byte. It must say "more records follow" (1) except in the
 * last record, which must say "final" (2).
 */
export function recordDataLength(padded: Uint8Array, sequence: number, records: number): number {
  // Every record this format writes ends in its delimiter: one byte read, no scan.
  const expectedLast = sequence === records - 1 ? DELIMITER_FINAL_RECORD : DELIMITER_MORE_RECORDS;
  if (padded[padded.length - 1] === expectedLast) return padded.length - 1;
  let delimiterAt = padded.length - 1;
  while (delimiterAt >= 0 && padded[delimiterAt] === 0) delimiterAt--;
  const delimiter = padded[delimiterAt];
  const isLast = sequence === records - 1;
  const where = `record ${sequence + 1} of ${records}`;
  if (delimiter === undefined) throw new IntegrityError(`${where} has no padding delimiter`);
  if (isLast && delimiter === DELIMITER_MORE_RECORDS) {
    throw new IntegrityError(
      `missing final record: ${where} says more records follow (message truncated at a record boundary)`,
    );
  }
  if (!isLast && delimiter === DELIMITER_FINAL_RECORD) {
    throw new IntegrityError(`trailing data: ${where} is marked final but more bytes follow it`);
  }
  const expected = isLast ? DELIMITER_FINAL_RECORD : DELIMITER_MORE_RECORDS;
  if (delimiter !== expected)
    throw new IntegrityError(`${where} has padding delimiter ${delimiter}, expected ${expected}`);
  return delimiterAt;
}

/** Refuses a message header this format never writes (too short, another record size, a key id). */
function checkHeader(message: Uint8Array): void {
  if (message.length < HEADER_LENGTH) {
    throw new CryptoFormatError(`truncated: ${message.length} bytes is shorter than the ${HEADER_LENGTH}-byte header`);
  }
  const header = new DataView(message.buffer, message.byteOffset, HEADER_LENGTH);
  const recordSize = header.getUint32(SALT_LENGTH);
  if (recordSize !== RECORD_SIZE)
    throw new CryptoFormatError(`wrong record size: the header says ${recordSize}, expected ${RECORD_SIZE}`);
  const keyIdLength = header.getUint8(SALT_LENGTH + 4);
  if (keyIdLength !== 0) throw new CryptoFormatError(`bad header: key id length is ${keyIdLength}, expected 0`);
}

/**
 * Decrypts some consecutive records of a message without the rest of it: RFC 8188 records are
 * sealed independently, record i under a nonce derived from the message's salt and i, so a player
 * seeking into a large chunk fetches only the header and the records it needs. `header` is the
 * message's first 21 bytes, `records` the bytes of records `first`, `first + 1`, ... (whole records:
 * RECORD_SIZE bytes each, the message's last one shorter), `total` how many records the message has,
 * so the delimiter rule is checked as in decryptMessage (only the last record may say "final").
 * Each record is authenticated; what this cannot see is a change to records it was not given.
 */
export async function decryptRecords(
  secretKey: CryptoKey,
  header: Uint8Array,
  first: number,
  records: Uint8Array,
  total: number,
): Promise<Uint8Array<ArrayBuffer>> {
  checkHeader(header);
  const count = Math.ceil(records.length / RECORD_SIZE);
  if (count === 0 || first < 0 || first + count > total)
    throw new RangeError(`records ${first + 1}-${first + count} are not inside a message of ${total} records`);
  const lastLength = records.length - (count - 1) * RECORD_SIZE;
  if (lastLength < RECORD_OVERHEAD || (first + count < total && lastLength !== RECORD_SIZE))
    throw new IntegrityError(`truncated: record ${first + count} of ${total} has ${lastLength} bytes`);
  const keys = await deriveMessageKeys(secretKey, header.slice(0, SALT_LENGTH));
  const plaintext = await openRecords(keys, records, 0, first, count, total);
  return plaintext;
}

/**
 * How many records a whole message has, once its header and its length are checked: what every
 * decryptor of a whole message (this one, the Node client's on node:crypto) checks first.
 */
export function messageRecords(message: Uint8Array): number {
  checkHeader(message);
  const bodyLength = message.length - HEADER_LENGTH;
  if (bodyLength === 0) throw new IntegrityError('missing final record: the message ends after its header (truncated)');
  const records = Math.ceil(bodyLength / RECORD_SIZE);
  const lastRecordLength = bodyLength - (records - 1) * RECORD_SIZE;
  if (lastRecordLength < RECORD_OVERHEAD) {
    throw new IntegrityError(
      `truncated or trailing data: the last record is ${lastRecordLength} bytes, shorter than a delimiter and a tag`,
    );
  }
  return records;
}

/**
 * Decrypts one message and returns its plaintext. Throws CryptoFormatError for a header this format
 * never writes, and IntegrityError for anything that fails authentication or record structure
 * (wrong key, altered bytes, truncation, trailing data). A message with no records at all, which
 * wormhole-crypto writes for an empty input, is refused as truncated: an empty value is never valid here.
 */
export async function decryptMessage(secretKey: CryptoKey, message: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const records = messageRecords(message);
  const keys = await deriveMessageKeys(secretKey, message.slice(0, SALT_LENGTH));
  return openRecords(keys, message, HEADER_LENGTH, 0, records, records);
}

/**
 * Decrypts `count` consecutive whole records starting at `source[start]`, records `first`.. of a
 * message of `total`, into one output buffer. Each record's data is written at its unpadded
 * position; records with RFC 8188 padding (which neither wormhole-crypto nor this module writes, but
 * the RFC allows) are compacted afterwards.
 */
async function openRecords(
  keys: MessageKeys,
  source: Uint8Array,
  start: number,
  first: number,
  count: number,
  total: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const bodyLength = source.length - start;
  const plaintext = new Uint8Array(bodyLength - count * RECORD_OVERHEAD);
  const dataLengths = new Uint32Array(count);
  const nonces = recordNonces(keys.nonceBase, first, count);
  let padded = false;
  await eachRecord(
    count,
    (j) => {
      const at = start + j * RECORD_SIZE;
      const record = source.subarray(at, Math.min(at + RECORD_SIZE, source.length)) as Uint8Array<ArrayBuffer>;
      const iv = nonces.subarray(j * NONCE_LENGTH, (j + 1) * NONCE_LENGTH);
      return crypto.subtle.decrypt(gcmParams(iv), keys.contentKey, record);
    },
    (j, decrypted) => {
      const i = first + j;
      if (decrypted === null) {
        throw new IntegrityError(
          `bad tag: record ${i + 1} of ${total} failed authentication (wrong key, or the bytes were altered)`,
        );
      }
      const record = new Uint8Array(decrypted);
      const dataLength = recordDataLength(record, i, total);
      if (dataLength !== record.length - 1) padded = true;
      plaintext.set(record.subarray(0, dataLength), j * PLAINTEXT_PER_RECORD);
      dataLengths[j] = dataLength;
    },
  );
  if (!padded) return plaintext;
  let written = 0;
  for (let j = 0; j < count; j++) {
    const dataStart = j * PLAINTEXT_PER_RECORD;
    const dataLength = dataLengths[j]!;
    if (written !== dataStart) plaintext.copyWithin(written, dataStart, dataStart + dataLength);
    written += dataLength;
  }
  return plaintext.slice(0, written);
}
