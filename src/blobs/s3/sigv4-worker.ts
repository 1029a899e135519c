import { parentPort } from 'node:worker_threads';
import { type ChunkSigningJob, signChunks } from './sigv4-chunks.js';

/** The worker side of sigv4-pool.ts: signs one job per message, answers with its id. */
parentPort?.on('message', (message: { id: number; job: ChunkSigningJob }) => {
  try {
    parentPort?.postMessage({ id: message.id, hex: signChunks(message.job) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: String(error) });
  }
});
