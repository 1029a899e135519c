/**
 * Chunk encryption throughput: `npx tsx bench/crypto.bench.ts [MiB] [rounds]`.
 *
 * On one 10 MiB buffer (by default) it times our encryptChunk/decryptChunk against two baselines
 * measured in the same run: raw WebCrypto AES-128-GCM over the whole buffer in one call (the cost
 * of the cipher itself, with no framing), and wormhole-crypto (the library file.kiwi's clients
 * use). Rounds (two warm-up rounds first) interleave the cases; it prints each median, as wall-clock
 * throughput and as bytes per CPU-second (all threads), and the ratios; compare ratios, not absolute figures, since
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
const wallSeconds = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Case, number[]>;
// CPU time of all the process's threads (WebCrypto runs on Node's thread pool): it varies far less
// than wall time when other processes load the machine.
const cpuSeconds = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Case, number[]>;
for (let round = -2; round < rounds; round++) {
  for (const name of names) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await cases[name]();
    const cpu = process.cpuUsage(cpuStart);
    if (round >= 0) {
      wallSeconds[name].push((performance.now() - start) / 1000);
      cpuSeconds[name].push((cpu.user + cpu.system) / 1e6);
    }
  }
}
/** Median throughput in MB/s (10^6 bytes per second). */
function medianThroughput(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return plaintext.length / sorted[Math.floor(sorted.length / 2)]! / 1e6;
}
const results = Object.fromEntries(names.map((name) => [name, medianThroughput(wallSeconds[name])])) as Record<
  Case,
  number
>;
const perCpu = Object.fromEntries(names.map((name) => [name, medianThroughput(cpuSeconds[name])])) as Record<
  Case,
  number
>;

const mbps = (value: number) => `${value.toFixed(0).padStart(6)} MB/s`;
console.log(`chunk of ${mebibytes} MiB, median of ${rounds} rounds, Node ${process.version}`);
console.log(`${''.padEnd(16)} ${'wall'.padStart(11)} ${'per CPU-second'.padStart(16)}`);
for (const name of names) console.log(`${name.padEnd(16)} ${mbps(results[name])} ${mbps(perCpu[name]).padStart(16)}`);
const ratio = (a: number, b: number) => (a / b).toFixed(2);
for (const [label, ours, raw, reference] of [
  ['encrypt', 'ourEncrypt', 'rawEncrypt', 'wormholeEncrypt'],
  ['decrypt', 'ourDecrypt', 'rawDecrypt', 'wormholeDecrypt'],
] as const) {
  console.log(
    `${label}: ours / raw AES-GCM = ${ratio(results[ours], results[raw])} wall, ${ratio(perCpu[ours], perCpu[raw])} CPU; ` +
      `ours / wormhole-crypto = ${ratio(results[ours], results[reference])} wall, ${ratio(perCpu[ours], perCpu[reference])} CPU`,
  );
}
