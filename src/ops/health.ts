import type { Redis } from 'ioredis';
import type { BlobStore } from '../blobs/blob-store.js';
import type { MetadataStore } from '../store/metadata-store.js';

/**
 * Readiness: can this node serve? The metadata store, the blob store and (when configured) Redis
 * are each asked one cheap question, all at once, each with a time limit. A node that is shutting
 * down answers not ready, so a load balancer stops sending it new work while it drains.
 *
 * Redis is reported but does not make a node unready: it holds only rate-limit counters, and
 * without it every node serves correctly, unlimited (the limits fail open). It is shared by all
 * nodes, so failing readiness over it would have a load balancer drop every node at once.
 */
export type CheckResult = 'ok' | string;

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Record<string, CheckResult>;
}

/** Checks reported by /readyz that do not decide readiness (see above). */
const ADVISORY = new Set(['redis']);

const PROBE_ID = 'readyzprobe00000'; // a well-formed id no folder has (16 id characters)

export function readinessChecks(
  store: MetadataStore,
  blobs: BlobStore,
  redis: Redis | null,
): Record<string, () => Promise<unknown>> {
  const checks: Record<string, () => Promise<unknown>> = {
    store: () => store.getFolder(PROBE_ID),
    blobs: () => blobs.listChunks({ folderId: PROBE_ID, fileId: PROBE_ID }),
  };
  if (redis)
    checks.redis = async () => {
      // With the offline queue off a command fails at once while disconnected.
      if ((await redis.ping()) !== 'PONG') throw new Error('unexpected PING answer');
    };
  return checks;
}

export async function checkReadiness(
  checks: Record<string, () => Promise<unknown>>,
  timeoutMs: number,
  shuttingDown: boolean,
): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [name, 'ok'];
      } catch (error) {
        // The reason, without connection strings or stack: readyz is unauthenticated.
        return [name, `down: ${describe(error)}`];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const checksOut = Object.fromEntries(entries);
  if (shuttingDown) checksOut.process = 'down: shutting down';
  const ready = Object.entries(checksOut).every(([name, v]) => v === 'ok' || ADVISORY.has(name));
  return { ready, checks: checksOut };
}

function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && /^[A-Z0-9_]+$/.test(e.code)) return e.code;
  const message = typeof e.message === 'string' ? e.message : String(error);
  // Keep it short and free of URLs (which may carry credentials).
  return message.replace(/\b[a-z]+:\/\/\S+/gi, '[url]').slice(0, 120);
}
