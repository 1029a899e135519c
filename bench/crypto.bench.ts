/**
 * Chunk encryption throughput: `npx tsx bench/crypto.bench.ts [MiB] [rounds]`.
 *
 * On one 10 MiB buffer (by default) it times our encryptChunk/decryptChunk against two baselines
 * measured in the same run: raw WebCrypto AES-128-GCM over the whole buffer in one call (the cost
 * of the cipher itself, with no framing), and wormhole-crypto (the library file.kiwi's clients
 * use). Rounds (two warm-up rounds first) interleave the cases; it prints each median and the ratios; compare ratios, not absolute figures, since
 * the machine is shared.
 */
import { decryptChunk, encryptChunk, generateSecret, importSecret } from '../src/crypto/index.js';
import { randomBytes } from '../test/crypto/helpers.js';
import { referenceDecrypt, referenceEncrypt } from '../test/crypto/wormhole-reference.js';

const mebibytes = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 15);
const plaintext = randomBytes(mebibytes * 1024 * 1024);
const secret = generateSecret();
const key = await importSecret(secret);
const rawKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt', 'decrypt']);
const iv = new Uint8Array(12);
const rawCiphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, rawKey, plaintext));
const ourCiphertext = await encryptChunk(key, plaintext);

const cases = {
  rawEncrypt: () => crypto.subtle.encrypt({ name: 'AES-GCM', iv }, rawKey, plaintext),
  ourEncrypt: () => encryptChunk(key, plaintext),
  wormholeEncrypt: () => referenceEncrypt(secret, plaintext),
  rawDecrypt: () => crypto.subtle.decrypt({ name: 'AES-GCM', iv }, rawKey, rawCiphertext),
  ourDecrypt: () => decryptChunk(key, ourCiphertext),
  wormholeDecrypt: () => referenceDecrypt(secret, ourCiphertext),
} satisfies Record<string, () => Promise<unknown>>;

// Rounds interleave the cases, so load from other processes falls on all of them alike.
type Case = keyof typeof cases;
const names = Object.keys(cases) as Case[];
const seconds = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Case, number[]>;
for (let round = -2; round < rounds; round++) {
  for (const name of names) {
    const start = performance.now();
    await cases[name]();
    if (round >= 0) seconds[name].push((performance.now() - start) / 1000);
  }
}
/** Median throughput in MB/s (10^6 bytes per second). */
function medianThroughput(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return plaintext.length / sorted[Math.floor(sorted.length / 2)]! / 1e6;
}
const results = Object.fromEntries(names.map((name) => [name, medianThroughput(seconds[name])])) as Record<Case, number>;

const mbps = (value: number) => `${value.toFixed(0).padStart(6)} MB/s`;
console.log(`chunk of ${mebibytes} MiB, median of ${rounds} rounds, Node ${process.version}`);
for (const [name, value] of Object.entries(results)) console.log(`${name.padEnd(16)} ${mbps(value)}`);
console.log(`encrypt: ours / raw AES-GCM = ${(results.ourEncrypt / results.rawEncrypt).toFixed(2)}, ours / wormhole-crypto = ${(results.ourEncrypt / results.wormholeEncrypt).toFixed(1)}`);
console.log(`decrypt: ours / raw AES-GCM = ${(results.ourDecrypt / results.rawDecrypt).toFixed(2)}, ours / wormhole-crypto = ${(results.ourDecrypt / results.wormholeDecrypt).toFixed(1)}`);
