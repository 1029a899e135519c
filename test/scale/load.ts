import type { CreateResponseDirect } from '../../src/contract/types.js';

/**
 * Steady load on a set of nodes while a fault is injected (test/scale/faults.test.ts): each worker
 * creates a folder with one file on one node, asks the other node for its upload status and reads the
 * folder through the site's API, round and round until stopped. Every answer is kept, so the test can
 * check what clients saw during the fault: a clean `{error, code}` or success, never a reset or a
 * process gone.
 */
export interface Answer {
  readonly node: number;
  readonly route: 'create' | 'status' | 'site';
  /** The HTTP status, or 'reset' when the connection failed (refused, reset, no answer). */
  readonly status: number | 'reset';
  readonly code?: string;
  /** When the answer arrived (Date.now()). */
  readonly at: number;
  /** A body that was not JSON, or JSON without `error` and `code` on a refusal. */
  readonly unclean?: string;
}

export interface Load {
  readonly answers: Answer[];
  /** Folder ids whose creation was answered 200. */
  readonly acknowledged: string[];
  stop(): Promise<void>;
}

export function startLoad(baseUrls: readonly string[], siteApi: string, workers = 4): Load {
  const answers: Answer[] = [];
  const acknowledged: string[] = [];
  let running = true;
  const call = async (
    node: number,
    route: Answer['route'],
    path: string,
    init?: RequestInit,
  ): Promise<{ status: number; body: unknown } | null> => {
    let res: Response;
    try {
      res = await fetch(`${baseUrls[node]}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
    } catch {
      answers.push({ node, route, status: 'reset', at: Date.now() });
      return null;
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      answers.push({ node, route, status: res.status, at: Date.now(), unclean: text.slice(0, 200) });
      return null;
    }
    const refusal = body as { error?: unknown; code?: unknown };
    const clean = res.ok || (typeof refusal.error === 'string' && typeof refusal.code === 'string');
    answers.push({
      node,
      route,
      status: res.status,
      at: Date.now(),
      ...(typeof refusal.code === 'string' ? { code: refusal.code } : {}),
      ...(clean ? {} : { unclean: text.slice(0, 200) }),
    });
    return { status: res.status, body };
  };
  const worker = async (w: number) => {
    for (let round = 0; running; round++) {
      const a = (w + round) % baseUrls.length;
      const b = (a + 1) % baseUrls.length;
      const created = await call(a, 'create', '/v2/folders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ encryption: { ske: 'load-ske' }, files: [{ filename: 'name', filesize: 100 }] }),
      });
      if (created?.status !== 200) {
        // A client backs off before retrying; without it the workers would spin on refusals.
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const folder = created.body as CreateResponseDirect;
      acknowledged.push(folder.folderId);
      const file = folder.files[0]!;
      await call(
        b,
        'status',
        `/v2/folders/${folder.folderId}/files/${file.fileId}/upload-status?uploadAuth=${folder.uploadAuth}`,
      );
      await call(b, 'site', `${siteApi}/folders/${folder.folderId}`, { headers: { accept: 'application/json' } });
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return {
    answers,
    acknowledged,
    async stop() {
      running = false;
      await done;
    },
  };
}
