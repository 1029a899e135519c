/// <reference lib="webworker" />
import { encryptChunkParts, openChunk } from '../core.js';
import { CLOSE_PORT, type CryptoReply, type CryptoRequest, failureOf } from './crypto-ports.js';
import { type SaveRequest, serveSave } from './file-saver.js';

/**
 * A crypto worker: a dedicated worker the page starts (web/src/workers/crypto-pool.ts) so that chunk
 * encryption and decryption, the transfers' main CPU cost, run off the page's thread and off the
 * service worker's, on as many cores as the pool has workers. It answers requests from the page
 * itself and from ports the page lends to its service worker for a download (a service worker
 * cannot start workers of its own). Results go back as transferred buffers (an upload's chunk as its
 * message's parts, which the page makes the PUT's Blob of).
 */
declare const self: DedicatedWorkerGlobalScope;

type Reply = (reply: CryptoReply, transfer?: Transferable[]) => void;

async function serve(request: CryptoRequest & { id: number }, reply: Reply): Promise<void> {
  try {
    if (request.op === 'seal') {
      const parts = await encryptChunkParts(request.key, request.plaintext);
      reply(
        { id: request.id, parts },
        parts.map((p) => (p instanceof ArrayBuffer ? p : p.buffer)),
      );
      return;
    }
    const bytes =
      // The one retry policy (DOWNLOAD_RETRY) tells each wait to the thread that asked.
      await openChunk(request.file, request.chunk, {
        http: {
          onRetry: (retry) => reply({ id: request.id, retry }),
          // A paused download's next try names its own policy (one attempt).
          ...(request.retry ? { retry: request.retry } : {}),
        },
      });
    reply({ id: request.id, bytes }, [bytes.buffer]);
  } catch (error) {
    reply({ id: request.id, ...failureOf(error), message: (error as Error).message });
  }
}

self.addEventListener('message', (event: MessageEvent) => {
  const data = event.data as (CryptoRequest & { id: number }) | { type: 'serve' } | SaveRequest;
  if ('type' in data && data.type === 'save') {
    serveSave(data, event.ports);
    return;
  }
  if ('type' in data) {
    // A port lent to the service worker for one download: requests on it are answered on it.
    const port = event.ports[0];
    if (!port) return;
    port.addEventListener('message', (e: MessageEvent) => {
      if (e.data === CLOSE_PORT) port.close();
      else void serve(e.data as CryptoRequest & { id: number }, (r, t = []) => port.postMessage(r, t));
    });
    port.start();
    return;
  }
  void serve(data, (r, t = []) => self.postMessage(r, t));
});
